// Preloaded into the one-process server by the memory check (NODE_OPTIONS=--require …/gc-signal.preload.cjs):
// on SIGWINCH (a signal NestJS's shutdown hooks leave alone, whose default action is to ignore it) it
// runs two full garbage collections and writes process.memoryUsage() to $BENCH_GC_FILE, so a leak check
// compares what is still reachable, not how lazily the collector has run.
const { writeFileSync } = require('node:fs');
const v8 = require('node:v8');
const vm = require('node:vm');

const file = process.env.BENCH_GC_FILE;
if (file && require('node:worker_threads').isMainThread) {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc');
  process.on('SIGWINCH', () => {
    gc();
    gc();
    writeFileSync(file, JSON.stringify(process.memoryUsage()));
  });
}
