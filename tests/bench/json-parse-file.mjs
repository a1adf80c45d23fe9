// The baseline for a Chrome trace: JSON.parse of the whole file (what a naive reader does).
import { readFileSync } from 'node:fs';
const value = JSON.parse(readFileSync(process.argv[2], 'utf8'));
console.log(Array.isArray(value) ? value.length : value.traceEvents.length);
