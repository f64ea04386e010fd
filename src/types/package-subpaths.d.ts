// gpt-tokenizer and js-tiktoken publish subpaths through package "exports", which the project's node10
// module resolution does not read; these point the same specifiers at the shipped typings.
declare module 'gpt-tokenizer/BytePairEncodingCore' {
  export * from 'gpt-tokenizer/cjs/BytePairEncodingCore';
}
declare module 'gpt-tokenizer/encodingParams/constants' {
  export * from 'gpt-tokenizer/cjs/encodingParams/constants';
}
declare module 'gpt-tokenizer/bpeRanks/o200k_base' {
  export { default } from 'gpt-tokenizer/cjs/bpeRanks/o200k_base';
}
declare module 'gpt-tokenizer/bpeRanks/cl100k_base' {
  export { default } from 'gpt-tokenizer/cjs/bpeRanks/cl100k_base';
}
declare module 'gpt-tokenizer/encoding/o200k_base' {
  export * from 'gpt-tokenizer/cjs/encoding/o200k_base';
}
declare module 'js-tiktoken/ranks/o200k_base' {
  export { default } from 'js-tiktoken/dist/ranks/o200k_base';
}
declare module 'js-tiktoken/ranks/cl100k_base' {
  export { default } from 'js-tiktoken/dist/ranks/cl100k_base';
}
declare module 'gpt-tokenizer/encoding/cl100k_base' {
  export * from 'gpt-tokenizer/cjs/encoding/cl100k_base';
}
