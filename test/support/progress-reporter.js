/**
 * Jest reporter beside the default one: a line per finished test file with how far the run is
 * (`[12/71] 3:05 PASS test/e2e/x.e2e-spec.ts 34.1 s, 26 tests`), and, for a file that runs long, a line
 * every minute saying which file and how many of its tests are done — the run is never silent for minutes —,
 * and the ten slowest files at the end.
 */
const { relative } = require('node:path');

const HEARTBEAT_MS = 60_000;

const clock = (ms) => `${Math.floor(ms / 60_000)}:${String(Math.floor((ms % 60_000) / 1000)).padStart(2, '0')}`;

class ProgressReporter {
  constructor(globalConfig) {
    this.root = globalConfig.rootDir;
    this.total = 0;
    this.done = 0;
    this.started = Date.now();
    this.running = new Map(); // path → { since, tests }
    this.timer = null;
    this.durations = [];
  }

  write(line) {
    process.stderr.write(`${line}\n`);
  }

  onRunStart(results) {
    this.total = results.numTotalTestSuites;
    this.started = Date.now();
    this.timer = setInterval(() => this.heartbeat(), HEARTBEAT_MS);
    this.timer.unref();
  }

  onTestFileStart(test) {
    this.running.set(test.path, { since: Date.now(), tests: 0 });
  }

  onTestCaseResult(test) {
    const file = this.running.get(test.path);
    if (file) file.tests++;
  }

  heartbeat() {
    const now = Date.now();
    for (const [path, file] of this.running) {
      if (now - file.since < HEARTBEAT_MS) continue;
      this.write(
        `[${this.done}/${this.total}] ${clock(now - this.started)} still running ${relative(this.root, path)}: ${clock(now - file.since)}, ${file.tests} test(s) done`,
      );
    }
  }

  onTestFileResult(test, result) {
    this.running.delete(test.path);
    this.done++;
    const verdict = result.testExecError || result.numFailingTests > 0 ? 'FAIL' : 'PASS';
    const seconds = ((result.perfStats.end - result.perfStats.start) / 1000).toFixed(1);
    this.durations.push([relative(this.root, test.path), Number(seconds)]);
    const tests = result.numPassingTests + result.numFailingTests + result.numPendingTests + result.numTodoTests;
    this.write(`[${this.done}/${this.total}] ${clock(Date.now() - this.started)} ${verdict} ${relative(this.root, test.path)} ${seconds} s, ${tests} tests`);
  }

  onRunComplete() {
    if (this.timer) clearInterval(this.timer);
    if (this.durations.length < 2) return;
    const slowest = this.durations.sort((a, b) => b[1] - a[1]).slice(0, 10);
    this.write(`slowest files (wall time ${clock(Date.now() - this.started)}): ${slowest.map(([f, s]) => `${f.replace(/^.*\//, '')} ${s} s`).join(', ')}`);
  }

  getLastError() {
    return undefined;
  }
}

module.exports = ProgressReporter;
