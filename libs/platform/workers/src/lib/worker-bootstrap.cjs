// Starts a worker process from the TypeScript sources (tests, runs from a checkout): registers the
// TypeScript loader with the workspace's path aliases, then loads the entry. Arguments: the entry,
// the tsconfig with the path aliases, then the worker's own arguments (its data). Bundles start
// their compiled entry (e.g. `content-worker.js` next to `main.js`) directly instead.
const [entry, project] = process.argv.splice(2, 2);
if (project) process.env.SWC_NODE_PROJECT = project;
require('@swc-node/register');
require(entry);
