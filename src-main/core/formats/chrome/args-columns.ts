import type { AttrValue, Attrs } from '../../model/row';
import { grownColumn } from '../../model/grown-column';
import { fitsAttrShape, type AttrColumns } from '../../model/attr-shape';

/**
 * Slices' args kept as columns from their import to their row, not as the objects JSON.parse
 * made: a GPU rank's args objects (a kernel's dozen numbers, an op's shapes) lived from their
 * event to the end of the rank's read, and the collector marked and moved every one of them
 * again and again (eight ranks of 300 MB: 0.90x main's peak with this, the CPU time unchanged
 * within the machine's noise). An args object is read into its section (its keys in for-in
 * order, which are numbers: shared by the args that look alike), its numbers into one
 * Float64Array and its other values into one array. Its item's packer copies those values as
 * they are (`columnsOf`): an object made again of them for each item (`object`, the same keys
 * in the same order with the same values), then read key by key by the packer, was a tenth of a
 * GPU rank's open.
 */
export class ArgsColumns {
  /** per args: its section, and where its numbers and its other values begin */
  private sectionOf = new Int32Array(1024);
  private numbersAt = new Int32Array(1024);
  private refsAt = new Int32Array(1024);
  private count = 0;
  private numbers = new Float64Array(4096);
  private numberCount = 0;
  private readonly refs: AttrValue[] = [];
  private readonly sections: ArgsSection[] = [];
  /** the last few sections of each event name, latest first: nearly every args fits one */
  private readonly recent = new Map<string, ArgsSection[]>();
  /** each section by its keys and which of them are numbers */
  private readonly bySignature = new Map<string, ArgsSection>();
  /** the section each event name's args had last */
  private readonly last = new Map<string, ArgsSection>();

  /**
   * Past `maxSections` shapes of args, or `maxNames` event names, the args of a new one are kept
   * as they are: a trace whose every event has keys and a name of its own (ids in them) made a
   * section and its lists per event, and took twice the CPU time and 1.4x the peak of objects
   * (200k such events; with these bounds as main's within the noise). A GPU rank has a few dozen
   * shapes; its names run to thousands (a 300 MB bench rank: 6,143, a ProfilerStep#N a step).
   */
  constructor(
    private readonly maxSections = 4096,
    private readonly maxNames = 20_000,
  ) {}

  /**
   * The number `args` (of an event named `name`) is kept as, or null when it is kept as it is
   * (a key `__proto__`, which a plain assignment could not make again).
   */
  put(args: Attrs, name: string): number | null {
    // the section this name's args had last, checked as the values are written (one walk of
    // the keys, not a check and then a copy: both were a twentieth of a 30 MB rank's open)
    const last = this.last.get(name);
    const at = this.count;
    if (last === undefined || !this.write(last, args)) {
      const section = this.sectionFor(args, name);
      if (section === null) return null;
      this.last.set(name, section);
      if (!this.write(section, args)) return null;
    }
    return at;
  }

  /**
   * Writes `args` as the next args kept if it fits `section` (its keys in its order, numbers
   * where it has them), and says whether it did; nothing is kept when it does not.
   */
  private write(section: ArgsSection, args: Attrs): boolean {
    const { keys, numeric } = section;
    const numbersFrom = this.numberCount;
    const refsFrom = this.refs.length;
    if (numbersFrom + section.numberCount > this.numbers.length) {
      this.numbers = grownColumn(this.numbers, numbersFrom + section.numberCount, GROWTH);
    }
    const { numbers, refs } = this;
    let n = numbersFrom;
    let k = 0;
    // for-in: V8 reads the values by the object's enum cache (see ItemPacker.putAttrs)
    for (const key in args) {
      if (!Object.hasOwn(args, key)) continue;
      const value = args[key];
      const isNumber = typeof value === 'number';
      if (k >= keys.length || keys[k] !== key || numeric[k] !== isNumber) {
        refs.length = refsFrom;
        return false;
      }
      if (isNumber) numbers[n++] = value;
      else refs.push(value);
      k++;
    }
    if (k !== keys.length) {
      refs.length = refsFrom;
      return false;
    }
    const at = this.count++;
    if (at === this.sectionOf.length) {
      this.sectionOf = grownColumn(this.sectionOf, at + 1, GROWTH);
      this.numbersAt = grownColumn(this.numbersAt, at + 1, GROWTH);
      this.refsAt = grownColumn(this.refsAt, at + 1, GROWTH);
    }
    this.sectionOf[at] = section.index;
    this.numbersAt[at] = numbersFrom;
    this.refsAt[at] = refsFrom;
    this.numberCount = n;
    return true;
  }

  /**
   * A new object of the args kept as `at`: its keys in their order, its values. Copied from its
   * section's template, which has every key already: an object grown key by key took more time
   * (and a new backing store at every few keys).
   */
  object(at: number): Attrs {
    const { keys, numeric, template } = this.sections[this.sectionOf[at]];
    const { numbers, refs } = this;
    let n = this.numbersAt[at];
    let r = this.refsAt[at];
    const args: Attrs = { ...template };
    for (let k = 0; k < keys.length; k++) args[keys[k]] = numeric[k] ? numbers[n++] : refs[r++];
    return args;
  }

  /**
   * `into` made the columns of the args kept as `at` (its section and where its values begin),
   * for a packer to copy as they are: no object of them is made.
   */
  columnsOf(at: number, into: AttrColumns): AttrColumns {
    into.shape = this.sections[this.sectionOf[at]];
    into.numbers = this.numbers;
    into.numbersAt = this.numbersAt[at];
    into.refs = this.refs;
    into.refsAt = this.refsAt[at];
    return into;
  }

  /**
   * A slice's args (ChromeSlice.args: an object, or the number it is kept as here) as an object:
   * what its columns stand for (rows take the columns themselves: columnsOf).
   */
  objectOf(args: Attrs | number): Attrs {
    return typeof args === 'number' ? this.object(args) : args;
  }

  /** The value of `key` in a slice's args (an object, or the number it is kept as here). */
  valueOf(args: Attrs | number, key: string): unknown {
    return typeof args === 'number' ? this.value(args, key) : args[key];
  }

  /** The value of `key` in the args kept as `at` (undefined: it has none). */
  value(at: number, key: string): unknown {
    const section = this.sections[this.sectionOf[at]];
    const slot = section.slots.get(key);
    if (slot === undefined) return undefined;
    return slot >= 0 ? this.numbers[this.numbersAt[at] + slot] : this.refs[this.refsAt[at] + ~slot];
  }

  private sectionFor(args: Attrs, name: string): ArgsSection | null {
    let recent = this.recent.get(name);
    if (recent === undefined) {
      if (this.recent.size >= this.maxNames) return null;
      this.recent.set(name, (recent = []));
    }
    for (let k = 0; k < recent.length; k++) {
      const section = recent[k];
      if (fitsAttrShape(section, args)) {
        if (k > 0) recent.unshift(...recent.splice(k, 1));
        return section;
      }
    }
    const keys = Object.keys(args);
    if (keys.includes('__proto__')) return null;
    const numeric = keys.map((key) => typeof args[key] === 'number');
    // a shape met under another name is that name's section too (a kernel's args under each of
    // its thousands of names)
    const signature = JSON.stringify([keys, numeric]);
    let section = this.bySignature.get(signature);
    if (section === undefined) {
      if (this.sections.length >= this.maxSections) return null;
      const slots = new Map<string, number>();
      let numbers = 0;
      let refs = 0;
      // a number's slot counts among the numbers; another value's is ~ its place among the refs
      for (let k = 0; k < keys.length; k++) slots.set(keys[k], numeric[k] ? numbers++ : ~refs++);
      const template: Attrs = {};
      for (const key of keys) template[key] = null;
      section = {
        index: this.sections.length,
        keys,
        numeric,
        numberCount: numbers,
        slots,
        template,
      };
      this.sections.push(section);
      this.bySignature.set(signature, section);
    }
    recent.unshift(section);
    if (recent.length > RECENT_SECTIONS) recent.pop();
    return section;
  }
}

/** the columns grow by half: they stay allocated to the rank's rows, unused ends and all */
const GROWTH = 1.5;

/** sections tried per event name before one is made from an args' keys */
const RECENT_SECTIONS = 8;

/** The keys of args that look alike, in for-in order, and which of their values are numbers. */
interface ArgsSection {
  index: number;
  keys: string[];
  numeric: boolean[];
  numberCount: number;
  /** per key, its place among the numbers, or ~ its place among the other values */
  slots: Map<string, number>;
  /** an object of its keys in order (values null), copied to make one of its args */
  template: Attrs;
}
