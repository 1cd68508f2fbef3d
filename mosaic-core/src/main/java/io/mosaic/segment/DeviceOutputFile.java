package io.mosaic.segment;

import io.mosaic.device.Device;
import io.mosaic.device.DeviceOutputStream;
import java.io.IOException;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/** A new segment file as parquet-java writes it, through the device's write path. */
final class DeviceOutputFile implements OutputFile {
  private final Device device;
  private final String key;
  private DeviceOutputStream stream;

  DeviceOutputFile(Device device, String key) {
    this.device = device;
    this.key = key;
  }

  /** The stream once created: its checksum is the file's once parquet-java has closed it. */
  DeviceOutputStream stream() {
    return stream;
  }

  @Override
  public PositionOutputStream create(long blockSizeHint) throws IOException {
    stream = device.openForWrite(key);
    return new PositionOutputStream() {
      @Override
      public long getPos() {
        return stream.position();
      }

      @Override
      public void write(int b) throws IOException {
        stream.write(b);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        stream.write(b, off, len);
      }

      @Override
      public void close() throws IOException {
        stream.close();
      }
    };
  }

  @Override
  public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
    return create(blockSizeHint);
  }

  @Override
  public boolean supportsBlockSize() {
    return false;
  }

  @Override
  public long defaultBlockSize() {
    return 0;
  }

  @Override
  public String getPath() {
    return device.where(key);
  }
}
