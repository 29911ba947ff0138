// Preloaded into a service (`NODE_OPTIONS=--require …/cpu-profile.preload.cjs`, since Node refuses
// --cpu-prof in NODE_OPTIONS): starts the V8 sampling profiler at once and, on SIGWINCH (a signal
// NestJS's shutdown hooks leave alone, unlike SIGUSR2, and whose default action is to ignore it), writes the
// profile to $BENCH_PROFILE_DIR/<pid>.cpuprofile and starts a new one (so a benchmark can profile
// just its measured window: signal once before, discard, signal once after).
const { Session } = require('node:inspector');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

const dir = process.env.BENCH_PROFILE_DIR;
if (dir && require('node:worker_threads').isMainThread) {
  const session = new Session();
  session.connect();
  let round = 0;
  const start = () => {
    session.post('Profiler.enable', () =>
      session.post('Profiler.setSamplingInterval', { interval: 1000 }, () => session.post('Profiler.start')),
    );
  };
  start();
  process.on('SIGWINCH', () => {
    session.post('Profiler.stop', (error, result) => {
      if (!error) {
        round += 1;
        writeFileSync(join(dir, `${process.pid}-${round}.cpuprofile`), JSON.stringify(result.profile));
      }
      start();
    });
  });
}
