package io.mosaic.device;

import io.mosaic.storage.Storage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;

/**
 * A file opened for reading through a device's I/O path: the only way Mosaic reads device data, so
 * an emulated device's throttle sees every byte. Supports sequential and positional reads; a read
 * that does not continue where the previous one ended counts as a seek. The bytes come from the
 * device's storage ({@link Storage.ReadFile}: a local file's channel, or an HDFS stream's
 * positional reads), straight into the caller's buffer.
 */
public final class DeviceReadChannel implements SeekableByteChannel, Storage.ReadFile {
  private final Storage.ReadFile file;
  private final DeviceThrottle throttle;
  // What the throttle tells files apart by (a Path or a key), for its seek accounting.
  private final Object name;
  private final int group;
  private long position;
  private volatile boolean open = true;

  /** {@code group}: the file's disk group on a cold device, else -1. */
  DeviceReadChannel(Storage.ReadFile file, Object name, DeviceThrottle throttle, int group) {
    this.file = file;
    this.throttle = throttle;
    this.name = name;
    this.group = group;
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    int n = read(dst, position);
    if (n > 0) {
      position += n;
    }
    return n;
  }

  /** Reads at {@code position} without moving this channel's position. */
  @Override
  public int read(ByteBuffer dst, long position) throws IOException {
    ensureOpen();
    long start = System.nanoTime();
    int n = file.read(dst, position);
    account(start, position, n);
    return n;
  }

  private void account(long start, long position, int n) throws IOException {
    if (throttle != null && n > 0) {
      throttle.pace(name, group, position, start, n);
    }
  }

  private void ensureOpen() throws ClosedChannelException {
    if (!open) {
      throw new ClosedChannelException();
    }
  }

  @Override
  public int write(ByteBuffer src) {
    throw new NonWritableChannelException();
  }

  @Override
  public long position() throws IOException {
    ensureOpen();
    return position;
  }

  @Override
  public SeekableByteChannel position(long newPosition) throws IOException {
    ensureOpen();
    if (newPosition < 0) {
      throw new IllegalArgumentException("negative position " + newPosition);
    }
    position = newPosition;
    return this;
  }

  @Override
  public long length() throws IOException {
    return size();
  }

  @Override
  public long size() throws IOException {
    ensureOpen();
    return file.length();
  }

  @Override
  public SeekableByteChannel truncate(long size) {
    throw new NonWritableChannelException();
  }

  @Override
  public boolean isOpen() {
    return open;
  }

  @Override
  public void close() throws IOException {
    if (open) {
      open = false;
      file.close();
    }
  }
}
