/** Encodes ASCII and the basic Cyrillic alphabet as Windows-1251 (А..я are 0xC0..0xFF), for importer tests. */
export function toWindows1251(text: string): Buffer {
  return Buffer.from(
    [...text].map((char) => {
      const code = char.charCodeAt(0);
      if (code < 0x80) return code;
      if (code >= 0x410 && code <= 0x44f) return code - 0x410 + 0xc0;
      throw new Error(`no Windows-1251 byte for ${char} in this helper`);
    }),
  );
}
