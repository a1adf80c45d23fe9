// Preloaded into a benchmark child: prints its peak resident memory when it exits.
process.on('exit', () => {
  process.stderr.write(`\nPEAK_RSS_KB=${process.resourceUsage().maxRSS}\n`);
});
