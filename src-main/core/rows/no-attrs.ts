import type { Attrs } from '../model/row';

/**
 * The attrs of every event and item without any: one frozen object (a million items each kept
 * an empty object of their own, a tenth of their memory), never changed once built (an item's
 * attrs are copied to be changed). Being one object, "has none" is a comparison.
 */
export const NO_ATTRS: Attrs = Object.freeze({}) as Attrs;
