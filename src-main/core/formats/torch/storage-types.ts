import { dtypeSize } from '../../model/dtype-numbers';

/** torch storage class names -> element dtype (a Map: a pickle names any class it likes). */
const STORAGE_DTYPES = new Map<string, string>([
  ['DoubleStorage', 'float64'],
  ['FloatStorage', 'float32'],
  ['HalfStorage', 'float16'],
  ['BFloat16Storage', 'bfloat16'],
  ['LongStorage', 'int64'],
  ['IntStorage', 'int32'],
  ['ShortStorage', 'int16'],
  ['CharStorage', 'int8'],
  ['ByteStorage', 'uint8'],
  ['BoolStorage', 'bool'],
  ['UntypedStorage', 'uint8'],
  ['ComplexFloatStorage', 'complex64'],
  ['ComplexDoubleStorage', 'complex128'],
]);

export function storageDtype(storageClassName: string): { dtype: string; itemSize: number } {
  const dtype = STORAGE_DTYPES.get(storageClassName.split('.').pop() ?? '') ?? 'uint8';
  return { dtype, itemSize: dtypeItemSize(dtype) };
}

/** Bytes an element of a storage of `dtype` takes (one not known: read as bytes). */
export function dtypeItemSize(dtype: string): number {
  return dtypeSize(dtype) || 1;
}
