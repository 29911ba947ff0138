// Starts a worker thread from the TypeScript sources (tests, runs from a checkout): registers the
// TypeScript loader with the workspace's path aliases inside the thread, then loads the entry.
// Bundles start their compiled entry (e.g. `parse-worker.js` next to `main.js`) directly instead.
const { workerData } = require('node:worker_threads');
if (workerData.project) process.env.SWC_NODE_PROJECT = workerData.project;
if (workerData.register) require(workerData.register);
require(workerData.entry);
