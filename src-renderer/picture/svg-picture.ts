/**
 * A chart's SVG as a file that looks as shown: the app styles its charts with CSS (classes,
 * theme variables), which a saved SVG does not carry, so each element's computed presentation
 * is written onto its copy; the background is painted as the page's.
 */

/** Presentation properties a chart's look depends on. */
const STYLE_PROPERTIES = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-dasharray',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'text-anchor',
  'dominant-baseline',
  'visibility',
  'display',
];

/** An element's computed presentation, as a style attribute's text. */
function presentationStyle(element: Element): string {
  const computed = getComputedStyle(element);
  return STYLE_PROPERTIES.map((p) => `${p}:${computed.getPropertyValue(p)}`).join(';');
}

export function svgPicture(svg: SVGSVGElement, background: string): string {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  const originals = [svg, ...Array.from(svg.querySelectorAll('*'))];
  const copies = [copy, ...Array.from(copy.querySelectorAll('*'))];
  originals.forEach((element, k) => {
    copies[k].setAttribute('style', presentationStyle(element));
    copies[k].removeAttribute('class');
    // a theme variable in an attribute means nothing outside the page (the style says it)
    for (const attribute of Array.from(copies[k].attributes)) {
      if (attribute.value.includes('var(')) copies[k].removeAttribute(attribute.name);
    }
  });
  const { width, height } = svg.getBoundingClientRect();
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  copy.setAttribute('width', String(Math.round(width)));
  copy.setAttribute('height', String(Math.round(height)));
  if (!copy.getAttribute('viewBox'))
    copy.setAttribute('viewBox', `0 0 ${Math.round(width)} ${Math.round(height)}`);
  const backdrop = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
  backdrop.setAttribute('width', '100%');
  backdrop.setAttribute('height', '100%');
  backdrop.setAttribute('fill', background);
  copy.insertBefore(backdrop, copy.firstChild);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(copy)}`;
}

/**
 * Runs `make` with every SVG element under `root` carrying its computed presentation inline,
 * then puts the style attributes back as they were: html-to-image copies an SVG's nodes without
 * the page's stylesheet rules on them (areas came out black, bands missing).
 */
export async function withInlinedSvgStyles<T>(root: Element, make: () => Promise<T>): Promise<T> {
  const elements = Array.from(root.querySelectorAll('svg, svg *'));
  const before = elements.map((element) => element.getAttribute('style'));
  const styles = elements.map(presentationStyle);
  elements.forEach((element, k) =>
    element.setAttribute('style', `${before[k] ?? ''};${styles[k]}`),
  );
  try {
    return await make();
  } finally {
    elements.forEach((element, k) => {
      const style = before[k];
      if (style === null) element.removeAttribute('style');
      else element.setAttribute('style', style);
    });
  }
}
