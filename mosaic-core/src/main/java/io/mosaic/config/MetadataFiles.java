package io.mosaic.config;

import io.mosaic.storage.Storage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads the small files Mosaic keeps beside its data (manifests, device markers, configuration,
 * traces) whole, after checking their size: a file far larger than such a file can be is damaged or
 * not Mosaic's, and reading it would only exhaust memory. The limit is checked before reading and
 * again while reading (a file that grows meanwhile).
 */
public final class MetadataFiles {
  /** Largest {@code devices.toml}, device model or catalogue read. */
  public static final long CONFIG_LIMIT = 16L << 20;

  private MetadataFiles() {}

  /** A file is larger than the kind of file it should be can be. */
  public static final class TooLargeException extends IOException {
    public TooLargeException(String message) {
      super(message);
    }
  }

  /**
   * The bytes of {@code file}, refusing by size before reading when it is larger than {@code
   * limit}; {@code what} names the kind of file in the message ("manifest").
   */
  public static byte[] read(Path file, long limit, String what) throws IOException {
    long size = Files.size(file);
    if (size > limit) {
      throw tooLarge(file, size, limit, what);
    }
    try (InputStream in = Files.newInputStream(file)) {
      byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 16, limit + 1));
      if (bytes.length > limit) {
        throw tooLarge(file, Files.size(file), limit, what);
      }
      return bytes;
    }
  }

  /** The bytes of the file at {@code key} of {@code storage}, refused by size as {@link #read}. */
  public static byte[] read(Storage storage, String key, long limit, String what)
      throws IOException {
    try (Storage.ReadFile in = storage.open(key)) {
      long size = in.length();
      if (size > limit) {
        throw tooLarge(storage.root().resolve(key), size, limit, what);
      }
      byte[] bytes = new byte[(int) size];
      in.readFully(java.nio.ByteBuffer.wrap(bytes), 0);
      return bytes;
    }
  }

  /** Checks the size of {@code file} only (for files then read piece by piece). */
  public static void checkSize(Path file, long limit, String what) throws IOException {
    long size = Files.size(file);
    if (size > limit) {
      throw tooLarge(file, size, limit, what);
    }
  }

  private static TooLargeException tooLarge(Object file, long size, long limit, String what) {
    return new TooLargeException(
        file
            + " is "
            + ByteSize.ofBytes(size)
            + " ("
            + size
            + " bytes), more than a "
            + what
            + " can be ("
            + (limit % (1 << 20) == 0 ? (limit >> 20) + " MiB" : limit + " bytes")
            + "); it is damaged or not a "
            + what
            + " Mosaic wrote, so it was not read");
  }
}
