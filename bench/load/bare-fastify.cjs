// The baseline of bench/load/scrape-load.ts: a bare Fastify server (no Nest, no auth, no database,
// no bus) answering POST /v2/scrape with a fixed JSON body, the gateway's own answer for the page.
//   node bench/load/bare-fastify.cjs <body.json>   prints {"url": …} when listening
const { readFileSync } = require('node:fs');
const Fastify = require('fastify');

const body = readFileSync(process.argv[2], 'utf8');
const app = Fastify({ logger: false, bodyLimit: 10 * 1024 * 1024 });
app.post('/v2/scrape', async (_request, reply) =>
  reply.header('content-type', 'application/json; charset=utf-8').send(body),
);
app
  .listen({ host: '127.0.0.1', port: 0 })
  .then((address) => process.stdout.write(`${JSON.stringify({ url: address })}\n`));
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
