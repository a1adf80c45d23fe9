/** torch storage class names -> element dtype and size in bytes. */
const STORAGE_DTYPES: Record<string, [string, number]> = {
  DoubleStorage: ['float64', 8],
  FloatStorage: ['float32', 4],
  HalfStorage: ['float16', 2],
  BFloat16Storage: ['bfloat16', 2],
  LongStorage: ['int64', 8],
  IntStorage: ['int32', 4],
  ShortStorage: ['int16', 2],
  CharStorage: ['int8', 1],
  ByteStorage: ['uint8', 1],
  BoolStorage: ['bool', 1],
  UntypedStorage: ['uint8', 1],
  ComplexFloatStorage: ['complex64', 8],
  ComplexDoubleStorage: ['complex128', 16],
};

export function storageDtype(storageClassName: string): { dtype: string; itemSize: number } {
  const [dtype, itemSize] = STORAGE_DTYPES[storageClassName.split('.').pop() ?? ''] ?? ['uint8', 1];
  return { dtype, itemSize };
}

export function dtypeItemSize(dtype: string): number {
  for (const [name, size] of Object.values(STORAGE_DTYPES)) if (name === dtype) return size;
  return 1;
}
