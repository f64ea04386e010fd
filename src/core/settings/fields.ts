import { z } from 'zod';

/** A regular expression's source, checked by compiling it (the `g` flag, as every user of a pattern compiles it). */
export const regexSource = z.string().refine(
  (source) => {
    try {
      new RegExp(source, 'g');
      return true;
    } catch {
      return false;
    }
  },
  { message: 'is not a valid regular expression' },
);
