package io.mosaic.table;

import io.mosaic.format.Manifest;
import io.mosaic.format.ManifestFile;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Decoded manifests of this JVM, by manifest file (a scan decoded and checked its manifest twice,
 * on every pin: docs/benchmarks.md, "Fixed cost per scan"). A published version is a file written
 * once under its number, but it can still be removed (gc), replaced by hand, or damaged; so the
 * cache never trusts a path alone: every read still reads the file, and a decoded {@link Manifest}
 * is reused only when the bytes are exactly the bytes it was decoded from. {@link
 * ManifestFile#decode} (checksum, JSON and every invariant of {@code ManifestChecker}) depends on
 * nothing but those bytes, so a hit returns what decoding would, and a removed, replaced or damaged
 * file is seen as before: a missing file, or other bytes that are decoded and checked anew. Errors
 * are never cached.
 *
 * <p>The same instance for every scan of a version also lets the footer cache keep its check of a
 * segment against that manifest ({@code FooterCache}).
 */
final class ManifestCache {
  /** File bytes kept (each entry holds its bytes and their decoded manifest, about as large). */
  static final long MAX_BYTES = 64L << 20;

  static final ManifestCache SHARED = new ManifestCache(MAX_BYTES);

  private record Entry(byte[] bytes, Manifest manifest) {}

  private final long maxBytes;
  private long bytes;
  private final LinkedHashMap<Object, Entry> entries = new LinkedHashMap<>(64, 0.75f, true);

  ManifestCache(long maxBytes) {
    this.maxBytes = maxBytes;
  }

  /**
   * The manifest decoded from {@code content}, the bytes just read from {@code file} (a local path,
   * or a URI string on other storage): the cached one if it was decoded from equal bytes, else
   * {@code decode}'s (cached when it succeeds).
   */
  Manifest get(Object file, byte[] content, Supplier<Manifest> decode) {
    synchronized (this) {
      Entry e = entries.get(file);
      if (e != null && Arrays.equals(e.bytes(), content)) {
        return e.manifest();
      }
    }
    Manifest m = decode.get();
    if (content.length <= maxBytes) {
      synchronized (this) {
        Entry old = entries.put(file, new Entry(content, m));
        bytes += content.length - (old == null ? 0 : old.bytes().length);
        Iterator<Map.Entry<Object, Entry>> eldest = entries.entrySet().iterator();
        while (bytes > maxBytes && eldest.hasNext()) {
          bytes -= eldest.next().getValue().bytes().length;
          eldest.remove();
        }
      }
    }
    return m;
  }

  /** Entries held (for tests). */
  synchronized int size() {
    return entries.size();
  }
}
