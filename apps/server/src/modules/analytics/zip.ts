import { constants, crc32, deflateRawSync } from 'node:zlib';
import { Zip, type ZipInputFile } from 'fflate';

// The data package's ZIP: each file's text deflated as it arrives, one file at a time.

/** Deflate level 3: half the CPU of level 6 for a package some 5% larger (docs/decisions/0050). */
const DEFLATE_LEVEL = 3;

/**
 * One ZIP entry, deflated by Node's zlib (native, several times faster than JavaScript deflate) as its text
 * arrives, and handed to fflate's ZIP writer as a ready-made entry (its `ZipInputFile` interface). Each
 * chunk is deflated on its own and ends on a sync flush, then an empty final block closes the stream: one
 * valid deflate stream, so only a chunk of the file's text (not the whole file, twice) is held at a time.
 */
async function addDeflated(zip: Zip, filename: string, texts: AsyncIterable<string>, mtime: Date): Promise<void> {
  const compressed: Buffer[] = [];
  let size = 0;
  let crc = 0;
  for await (const text of texts) {
    const raw = Buffer.from(text, 'utf8');
    size += raw.length;
    crc = crc32(raw, crc);
    compressed.push(deflateRawSync(raw, { level: DEFLATE_LEVEL, finishFlush: constants.Z_SYNC_FLUSH }));
  }
  compressed.push(deflateRawSync(Buffer.alloc(0), { level: DEFLATE_LEVEL }));
  const file: ZipInputFile = { filename, size, crc, compression: 8, mtime };
  zip.add(file);
  file.ondata?.(null, Buffer.concat(compressed), true);
}

/** A ZIP of the files, in order, each from its source of text (read once, one chunk at a time). */
export async function zipEntries(files: readonly [string, () => AsyncIterable<string>][]): Promise<Buffer> {
  const output: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else output.push(chunk);
  });
  const modified = new Date();
  for (const [name, source] of files) {
    // One page of a file's text at a time is held, then only its compressed form.
    await addDeflated(zip, name, source(), modified);
  }
  zip.end();
  if (failure) throw failure;
  return Buffer.concat(output);
}
