import type { FormatCapabilities } from '../model/file-format';

/**
 * What a descriptor says of its capabilities: only what its files can do. Everything left out
 * is false (FORMAT_DEFAULTS), so a new format's descriptor names the few things it answers
 * (`{ sourceGroups: true }`) and a capability added later is off for the formats that never
 * heard of it.
 */
export type CapabilitySpec = Partial<Omit<FormatCapabilities, 'facets'>> & {
  facets?: Partial<FormatCapabilities['facets']>;
};

/** A file that answers nothing beyond rows and spans: no samples, facets or extras. */
export const FORMAT_DEFAULTS: FormatCapabilities = {
  samples: false,
  lazyValues: false,
  perfSeries: false,
  sourceGroups: false,
  facets: { untraced: false, attempts: false, groups: false, rewards: false, pd: false },
};

/** The whole capabilities block: the defaults with what the descriptor said over them. */
export function capabilitiesOf(spec: CapabilitySpec = {}): FormatCapabilities {
  const { facets, ...rest } = spec;
  return {
    ...FORMAT_DEFAULTS,
    ...rest,
    facets: { ...FORMAT_DEFAULTS.facets, ...facets },
  };
}
