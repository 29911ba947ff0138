/**
 * Keeps the configuration docs and the chart's environment wiring generated from the one list of
 * settings: the config schema (libs/platform/config/src/lib/env.schema.ts) with the description,
 * default and secret flag of every variable (ENV_DOCS, env.docs.ts beside it). Writes
 *   - the configuration table of the project README,
 *   - the `config:` and `secrets:` sections of values.yaml (one commented key per variable),
 *   - their properties in values.schema.json (unknown keys are rejected),
 *   - the tables of the chart README (values, variables and where each comes from).
 *
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register deploy/helm/generate.ts [--check]
 * `--check` writes nothing and exits 1 when a file is out of date (the deploy tests run it).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { ENV_DOCS, type EnvName, envSchema } from '@quarry/platform/config';

const ROOT = join(__dirname, '../..');
const CHART = join(__dirname, 'quarry');

/** Variables the chart sets itself, per component, and how. */
export const MANAGED_ENV: Record<string, string> = {
  SERVICE_NAME: 'the component name (`gateway`, `scrape-worker`, …)',
  HOST: '`0.0.0.0`',
  PORT: '`3002` (the container port)',
  PUBLIC_URL:
    '`publicUrl`, else `https://<ingress.host>` when the ingress is on, else the gateway service URL',
  DATA_DIR: '`/data` (an emptyDir)',
  DATABASE_URL:
    'the bundled PostgreSQL, `postgresql.external.url` or `postgresql.external.existingSecret` (from a Secret)',
  DATABASE_MIGRATE_ON_START:
    '`false` when `migrations.enabled` (the migration Job applies them); `true` otherwise',
  BUS_DRIVER: '`kafka`',
  KAFKA_BROKERS: 'the bundled Kafka or `kafka.external.brokers`',
  BLOB_DIR: '`/var/lib/quarry/blobs` (the shared volume when `blobs.persistence`)',
  ADMIN_HEALTH_URLS:
    'the Services of the enabled components besides the gateway (`scrape-worker=http://<release>-scrape-worker:3002,…`), whose readiness the gateway’s operator view shows',
};

/** Where the chart's defaults differ from the services' (one-process) defaults. */
const CHART_DEFAULTS: Record<string, string> = {
  NODE_ENV: 'production',
};

/** Secrets the chart generates when left empty (kept across upgrades). */
const GENERATED_SECRETS = new Set(['BLOB_SIGNING_SECRET']);

interface Setting {
  name: string;
  defaultText: string;
  meaning: string;
  where: 'config' | 'secret' | 'chart';
}

/** Every variable of the config schema, in its order, with its documentation and where the chart sets it. */
export function settings(): Setting[] {
  return (Object.keys(envSchema.shape) as EnvName[]).map((name) => {
    const doc: { default: string; description: string; secret?: true } = ENV_DOCS[name];
    const where = name in MANAGED_ENV ? 'chart' : doc.secret ? 'secret' : 'config';
    return { name, defaultText: doc.default, meaning: doc.description, where };
  });
}

const README_BEGIN = '<!-- BEGIN GENERATED config (npx nx run deploy:chart-docs) -->';
const README_END = '<!-- END GENERATED config -->';

/** The project README's configuration table. */
export function renderProjectReadme(current: string, all: Setting[]): string {
  const rows = all.map(
    (setting) => `| \`${setting.name}\` | ${cell(setting.defaultText)} | ${cell(setting.meaning)} |`,
  );
  return replaceBetween(
    current,
    README_BEGIN,
    README_END,
    ['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n'),
  );
}

const plain = (markdown: string) => markdown.replace(/`/g, '').replace(/\s+/g, ' ').trim();
const yamlString = (value: string) =>
  value === ''
    ? '""'
    : /^[A-Za-z0-9_./:-]+$/.test(value) && !/^(true|false|yes|no|null|~|[0-9.]+)$/i.test(value)
      ? value
      : JSON.stringify(value);

function valuesBlock(all: Setting[]): { config: string; secrets: string } {
  const config = ['config:'];
  for (const setting of all.filter((candidate) => candidate.where === 'config')) {
    const chartDefault = CHART_DEFAULTS[setting.name];
    config.push(`  # -- ${plain(setting.meaning)} (service default: ${plain(setting.defaultText)})`);
    config.push(`  ${setting.name}: ${yamlString(chartDefault ?? '')}`);
  }
  const secrets = [
    'secrets:',
    '  # -- Existing Secret holding the keys below (the chart then renders none of them).',
    '  existingSecret: ""',
  ];
  for (const setting of all.filter((candidate) => candidate.where === 'secret')) {
    const note = GENERATED_SECRETS.has(setting.name)
      ? 'empty: generated once and kept across upgrades'
      : `service default: ${plain(setting.defaultText)}`;
    secrets.push(`  # -- ${plain(setting.meaning)} (${note})`);
    secrets.push(`  ${setting.name}: ""`);
  }
  return { config: config.join('\n'), secrets: secrets.join('\n') };
}

function replaceBetween(text: string, begin: string, end: string, body: string): string {
  const start = text.indexOf(begin);
  const stop = text.indexOf(end);
  if (start < 0 || stop < start) throw new Error(`markers ${begin} … ${end} not found`);
  return `${text.slice(0, start + begin.length)}\n${body}\n${text.slice(stop)}`;
}

export function renderValues(current: string, all: Setting[]): string {
  const blocks = valuesBlock(all);
  let next = replaceBetween(current, '# BEGIN GENERATED config', '# END GENERATED config', blocks.config);
  next = replaceBetween(next, '# BEGIN GENERATED secrets', '# END GENERATED secrets', blocks.secrets);
  return next;
}

const scalar = { type: ['string', 'number', 'boolean'] };

export function renderSchema(current: string, all: Setting[]): string {
  const schema = JSON.parse(current) as { properties: Record<string, unknown> };
  const property = (setting: Setting) =>
    [setting.name, { ...scalar, description: plain(setting.meaning) }] as const;
  schema.properties['config'] = {
    type: 'object',
    description: 'Environment of every component (generated from the README configuration table).',
    additionalProperties: false,
    properties: Object.fromEntries(all.filter((setting) => setting.where === 'config').map(property)),
  };
  schema.properties['secrets'] = {
    type: 'object',
    description: 'Secret settings (generated from the README configuration table).',
    additionalProperties: false,
    properties: {
      existingSecret: { type: 'string', description: 'Existing Secret holding the keys below.' },
      ...Object.fromEntries(all.filter((setting) => setting.where === 'secret').map(property)),
    },
  };
  return `${JSON.stringify(schema, null, 2)}\n`;
}

interface ValueDoc {
  path: string;
  defaultText: string;
  doc: string;
}

/** The `# --` documented keys of values.yaml, with their dotted paths and inline defaults. */
export function documentedValues(valuesYaml: string): ValueDoc[] {
  const docs: ValueDoc[] = [];
  const stack: { indent: number; key: string }[] = [];
  let pendingDoc: string | undefined;
  for (const line of valuesYaml.split('\n')) {
    const comment = /^\s*# -- (.*)$/.exec(line);
    if (comment) {
      pendingDoc = comment[1];
      continue;
    }
    const entry = /^(\s*)([A-Za-z0-9_]+):(.*)$/.exec(line);
    if (!entry) continue;
    const indent = entry[1].length;
    while (stack.length && stack[stack.length - 1].indent >= indent) stack.pop();
    stack.push({ indent, key: entry[2] });
    if (pendingDoc !== undefined) {
      const inline = entry[3].trim();
      docs.push({
        path: stack.map((item) => item.key).join('.'),
        defaultText: inline === '' ? '(see values.yaml)' : inline,
        doc: pendingDoc,
      });
      pendingDoc = undefined;
    }
  }
  return docs;
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

export function renderReadme(current: string, valuesYaml: string, all: Setting[]): string {
  const values = documentedValues(valuesYaml).filter((doc) => !/^(config|secrets)\.[A-Z]/.test(doc.path));
  const valuesTable = [
    '| Key | Default | Description |',
    '|---|---|---|',
    ...values.map((doc) => `| \`${doc.path}\` | \`${cell(doc.defaultText)}\` | ${cell(doc.doc)} |`),
  ].join('\n');
  const envTable = [
    '| Variable | Set through | Service default | Meaning |',
    '|---|---|---|---|',
    ...all.map((setting) => {
      const where =
        setting.where === 'chart'
          ? `chart: ${MANAGED_ENV[setting.name]}`
          : setting.where === 'secret'
            ? `\`secrets.${setting.name}\` (Secret)`
            : `\`config.${setting.name}\`${CHART_DEFAULTS[setting.name] ? ` (chart default \`${CHART_DEFAULTS[setting.name]}\`)` : ''}`;
      return `| \`${setting.name}\` | ${cell(where)} | ${cell(setting.defaultText)} | ${cell(setting.meaning)} |`;
    }),
  ].join('\n');
  let next = replaceBetween(
    current,
    '<!-- BEGIN GENERATED values -->',
    '<!-- END GENERATED values -->',
    valuesTable,
  );
  next = replaceBetween(next, '<!-- BEGIN GENERATED env -->', '<!-- END GENERATED env -->', envTable);
  return next;
}

export function generate(check: boolean): string[] {
  const all = settings();
  const files = {
    projectReadme: join(ROOT, 'README.md'),
    values: join(CHART, 'values.yaml'),
    schema: join(CHART, 'values.schema.json'),
    readme: join(CHART, 'README.md'),
  };
  const currentValues = readFileSync(files.values, 'utf8');
  const nextValues = renderValues(currentValues, all);
  const projectReadme = readFileSync(files.projectReadme, 'utf8');
  const outputs: [string, string, string][] = [
    [files.projectReadme, projectReadme, renderProjectReadme(projectReadme, all)],
    [files.values, currentValues, nextValues],
    [files.schema, readFileSync(files.schema, 'utf8'), renderSchema(readFileSync(files.schema, 'utf8'), all)],
    [
      files.readme,
      readFileSync(files.readme, 'utf8'),
      renderReadme(readFileSync(files.readme, 'utf8'), nextValues, all),
    ],
  ];
  const stale = outputs
    .filter(([, current, next]) => current !== next)
    .map(([file]) => file.slice(ROOT.length + 1));
  if (!check) for (const [file, current, next] of outputs) if (current !== next) writeFileSync(file, next);
  return stale;
}

if (require.main === module) {
  const check = process.argv.includes('--check');
  const stale = generate(check);
  if (check && stale.length) {
    process.stderr.write(`out of date (run: npx nx run deploy:chart-docs): ${stale.join(', ')}\n`);
    process.exit(1);
  }
  process.stdout.write(
    stale.length
      ? `${check ? 'stale' : 'updated'}: ${stale.join(', ')}\n`
      : 'README configuration table, chart values, schema and README are up to date\n',
  );
}
