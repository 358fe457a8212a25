/**
 * CONTRACT §5: string lengths count Unicode code points, so an emoji is one character. A surrogate
 * pair counts once; a lone surrogate counts once, as the string iterator (`[...s]`) does. A plain
 * loop over UTF-16 units: this runs for every string field of every request, and `Array.from(s)`
 * would allocate an array as long as the string.
 */
export function codePointLength(s: string): number {
  const length = s.length;
  let count = 0;
  for (let i = 0; i < length; i++) {
    const unit = s.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < length) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}
