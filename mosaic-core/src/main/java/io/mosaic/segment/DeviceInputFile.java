package io.mosaic.segment;

import io.mosaic.device.Device;
import io.mosaic.storage.Storage;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A segment file as parquet-java reads it, from its device's storage by key: through the device's
 * I/O path (and its throttle), or, for footers and page indexes that caches keep off the data path,
 * straight from the storage.
 */
public final class DeviceInputFile implements InputFile {
  private interface Opener {
    Storage.ReadFile open() throws IOException;
  }

  private final Device device;
  private final String key;
  private final Opener opener;
  private final long length; // as a manifest records it, or -1: ask the storage

  private DeviceInputFile(Device device, String key, Opener opener) {
    this(device, key, opener, -1);
  }

  private DeviceInputFile(Device device, String key, Opener opener, long length) {
    this.device = device;
    this.key = key;
    this.opener = opener;
    this.length = length;
  }

  /**
   * The file at {@code key} of {@code device}, {@code length} bytes as its manifest records, read
   * from its storage without the throttle: neither its length nor its opening asks an object store
   * for metadata (a scan's segment opens, docs/format.md "Storage backends").
   */
  public static DeviceInputFile direct(Device device, String key, long length) {
    return new DeviceInputFile(device, key, () -> device.storage().open(key, length), length);
  }

  /** The file at {@code key} of {@code device}, read through the device's I/O path. */
  static DeviceInputFile throttled(Device device, String key) {
    return new DeviceInputFile(device, key, () -> device.openForRead(key));
  }

  /** The file at {@code key} of {@code device}, read from its storage without the throttle. */
  public static DeviceInputFile direct(Device device, String key) {
    return new DeviceInputFile(device, key, () -> device.storage().open(key));
  }

  @Override
  public long getLength() throws IOException {
    if (length >= 0) {
      return length;
    }
    return device
        .storage()
        .stat(key)
        .orElseThrow(() -> new NoSuchFileException(device.where(key)))
        .length();
  }

  @Override
  public SeekableInputStream newStream() throws IOException {
    return new Stream(opener.open());
  }

  @Override
  public String toString() {
    return device.where(key);
  }

  private static final class Stream extends SeekableInputStream {
    private final Storage.ReadFile channel;
    private long position;

    Stream(Storage.ReadFile channel) {
      this.channel = channel;
    }

    @Override
    public long getPos() {
      return position;
    }

    @Override
    public void seek(long newPos) {
      position = newPos;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      return read(ByteBuffer.wrap(b, off, len));
    }

    @Override
    public int read(ByteBuffer buf) throws IOException {
      int n = channel.read(buf, position);
      if (n > 0) {
        position += n;
      }
      return n;
    }

    @Override
    public void readFully(byte[] bytes) throws IOException {
      readFully(bytes, 0, bytes.length);
    }

    @Override
    public void readFully(byte[] bytes, int start, int len) throws IOException {
      readFully(ByteBuffer.wrap(bytes, start, len));
    }

    @Override
    public void readFully(ByteBuffer buf) throws IOException {
      int n = channel.readFully(buf, position);
      position += n;
      if (buf.hasRemaining()) {
        throw new EOFException("unexpected end of segment file at byte " + position);
      }
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }
}
