/**
 * Pickles written opcode by opcode, for the hostile corpus: each case is a few lines of
 * opcodes (no Python at test time). `py` encodes plain data the way CPython's protocol-2
 * pickler does (EMPTY_LIST/EMPTY_DICT, then APPENDS/SETITEMS in batches of 1000).
 */
export type Py = null | boolean | number | string | Py[] | { [key: string]: Py };

export class PickleWriter {
  private chunks: Uint8Array[] = [];
  private current: number[] = [];

  op(...bytes: number[]): this {
    for (const b of bytes) this.current.push(b);
    if (this.current.length > 1 << 16) this.flush();
    return this;
  }

  raw(bytes: Uint8Array): this {
    this.flush();
    this.chunks.push(bytes);
    return this;
  }

  /** the same opcodes n times (a flood), without building a huge array of numbers */
  repeat(n: number, ...bytes: number[]): this {
    this.flush();
    const block = new Uint8Array(bytes.length * n);
    for (let i = 0; i < n; i++) block.set(bytes, i * bytes.length);
    this.chunks.push(block);
    return this;
  }

  u32(v: number): this {
    return this.op(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);
  }

  proto(): this {
    return this.op(0x80, 2);
  }

  stop(): this {
    return this.op(0x2e);
  }

  str(text: string): this {
    const bytes = new TextEncoder().encode(text);
    this.op(0x58).u32(bytes.length);
    return this.raw(bytes);
  }

  int(v: number): this {
    if (v >= 0 && v < 256) return this.op(0x4b, v);
    this.op(0x4a);
    return this.u32(v >>> 0);
  }

  float(v: number): this {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setFloat64(0, v, false);
    return this.op(0x47, ...b);
  }

  global(module: string, name: string): this {
    this.op(0x63);
    this.raw(new TextEncoder().encode(`${module}\n${name}\n`));
    return this;
  }

  memoize(): this {
    return this.op(0x94);
  }

  get(index: number): this {
    return this.op(0x6a).u32(index);
  }

  /** CPython's encoding of plain data */
  py(value: Py): this {
    if (value === null) return this.op(0x4e);
    if (value === true) return this.op(0x88);
    if (value === false) return this.op(0x89);
    if (typeof value === 'number')
      return Number.isInteger(value) ? this.int(value) : this.float(value);
    if (typeof value === 'string') return this.str(value);
    if (Array.isArray(value)) {
      this.op(0x5d);
      for (let i = 0; i < value.length; i += 1000) {
        this.op(0x28);
        for (const item of value.slice(i, i + 1000)) this.py(item);
        this.op(0x65);
      }
      return this;
    }
    this.op(0x7d);
    const entries = Object.entries(value);
    for (let i = 0; i < entries.length; i += 1000) {
      this.op(0x28);
      for (const [k, v] of entries.slice(i, i + 1000)) this.str(k).py(v);
      this.op(0x75);
    }
    return this;
  }

  private flush(): void {
    if (this.current.length > 0) this.chunks.push(Uint8Array.from(this.current));
    this.current = [];
  }

  bytes(): Uint8Array {
    this.flush();
    const total = this.chunks.reduce((n, c) => n + c.length, 0);
    const out = new Uint8Array(total);
    let at = 0;
    for (const c of this.chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }
}

export const pickle = () => new PickleWriter();
