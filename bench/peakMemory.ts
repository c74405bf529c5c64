// Preloaded (`node --require out/bench/peakMemory.js ...`) into a process whose peak memory the huge-file
// bench reads: at exit it writes the process's maximum resident set size, in kilobytes, to the file named
// by RA_PEAK_FILE. Node's own figure, so the bench needs no /usr/bin/time.
import * as fs from 'node:fs';

const target = process.env.RA_PEAK_FILE;
if (target) {
  process.on('exit', () => {
    fs.writeFileSync(target, String(process.resourceUsage().maxRSS));
  });
}
