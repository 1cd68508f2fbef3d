package io.mosaic.device;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A file opened for reading through a device's I/O path: the only way Mosaic reads device data, so
 * an emulated device's throttle sees every byte. Supports sequential and positional reads; a read
 * that does not continue where the previous one ended counts as a seek.
 */
public final class DeviceReadChannel implements SeekableByteChannel {
  private final FileChannel file;
  private final DeviceThrottle throttle;
  private final Path path;
  private final int group;

  /** {@code group}: the file's disk group on a cold device, else -1. */
  DeviceReadChannel(Path path, DeviceThrottle throttle, int group) throws IOException {
    this.file = FileChannel.open(path, StandardOpenOption.READ);
    this.throttle = throttle;
    this.path = path;
    this.group = group;
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    long position = file.position();
    long start = System.nanoTime();
    int n = file.read(dst);
    account(start, position, n);
    return n;
  }

  /** Reads at {@code position} without moving this channel's position. */
  public int read(ByteBuffer dst, long position) throws IOException {
    long start = System.nanoTime();
    int n = file.read(dst, position);
    account(start, position, n);
    return n;
  }

  /** Reads until {@code dst} is full or the file ends; returns the bytes read. */
  public int readFully(ByteBuffer dst, long position) throws IOException {
    int total = 0;
    while (dst.hasRemaining()) {
      int n = read(dst, position + total);
      if (n < 0) {
        break;
      }
      total += n;
    }
    return total;
  }

  private void account(long start, long position, int n) throws IOException {
    if (throttle != null && n > 0) {
      throttle.pace(path, group, position, start, n);
    }
  }

  @Override
  public int write(ByteBuffer src) {
    throw new NonWritableChannelException();
  }

  @Override
  public long position() throws IOException {
    return file.position();
  }

  @Override
  public SeekableByteChannel position(long newPosition) throws IOException {
    file.position(newPosition);
    return this;
  }

  @Override
  public long size() throws IOException {
    return file.size();
  }

  @Override
  public SeekableByteChannel truncate(long size) {
    throw new NonWritableChannelException();
  }

  @Override
  public boolean isOpen() {
    return file.isOpen();
  }

  @Override
  public void close() throws IOException {
    file.close();
  }
}
