/**
 * A report as one HTML file: the renderer's report build (out/report, made by `npm run build`
 * from vite.report.config.ts) inlined, and the snapshot's deflated bytes as base64 in a data
 * block; each file's details (most of the bytes, read on the first click) after the script, so
 * the page starts before the parser has read them. The Content-Security-Policy allows nothing but that one script (by its hash), inline
 * styles (React sets style attributes) and data: images: no network, no other script.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { EncodedBlock, EncodedReport } from './encode-report';

/**
 * Where the report build is: out/report, beside out/main (this code may be bundled into
 * out/main or one of its chunk folders), or under the repository when run from source (tests).
 */
export function reportBuildDir(): string {
  let dir = __dirname;
  for (let up = 0; up < 4; up++, dir = dirname(dir)) {
    for (const candidate of [join(dir, '..', 'report'), join(dir, 'out', 'report')]) {
      if (existsSync(join(candidate, 'report.js'))) return candidate;
    }
  }
  return join(__dirname, '..', 'report');
}

export interface ReportPage {
  script: string;
  style: string;
}

/** The built page's script and style; a coded error when the build is missing. */
export function readReportPage(dir = reportBuildDir()): ReportPage {
  const script = join(dir, 'report.js');
  if (!existsSync(script)) {
    throw new Error(
      `${script}: the report page is not built; run npm run build [report/not-built]`,
    );
  }
  const style = join(dir, 'report.css');
  return {
    script: readFileSync(script, 'utf8'),
    style: existsSync(style) ? readFileSync(style, 'utf8') : '',
  };
}

export function reportHtml(page: ReportPage, data: EncodedReport, title: string): string {
  // inside a <script> element only "</script" (any case) and "<!--" could end or bend it
  const script = page.script.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\x21--');
  const hash = createHash('sha256').update(script, 'utf8').digest('base64');
  const csp = [
    "default-src 'none'",
    `script-src 'sha256-${hash}'`,
    "style-src 'unsafe-inline'",
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  const style = page.style.replace(/<\/(style)/gi, '<\\/$1');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body>
<div id="root"></div>
${dataBlock('report-data', data.snapshot)}
<script>${script}</script>
${data.details.map((bytes, i) => dataBlock(`report-details-${i}`, bytes)).join('\n')}
</body>
</html>
`;
}

/** A data block: never run (not a script type), base64 holds no markup. */
function dataBlock(id: string, block: EncodedBlock): string {
  const base64 = block.bytes.toString('base64');
  return `<script type="application/octet-stream" id="${id}" data-type="${escapeHtml(block.contentType)}">${base64}</script>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The page's title and the file name a share suggests, from the files' names. */
export function reportNames(
  names: string[],
  compare: boolean,
): { title: string; fileName: string } {
  const what = compare ? names.join(' vs ') : names.join(', ');
  const stem = (compare ? names.join('-vs-') : (names[0] ?? 'report')).replace(/[^\w.-]+/g, '_');
  return { title: `${what}: Trace Explorer report`, fileName: `${stem}.report.html` };
}
