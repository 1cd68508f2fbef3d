package io.mosaic.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.config.DeviceMarker;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The throttle's correctness: an emulated device never delivers faster than its rate, whatever the
 * number of threads, charges its seek time for non-sequential reads, and returns the real bytes.
 * (How close it gets to the rate is a benchmark figure, see docs/benchmarks.md.)
 */
class DeviceThrottleTest {
  @TempDir Path dir;

  private Device device(String emulate) throws IOException {
    Path file = dir.resolve("devices.toml");
    Files.writeString(
        file,
        """
        [[device]]
        id = "d"
        path = "d"
        capacity = "1 GB"
        threads = 4
        codec = "none"
        cost_per_gb = "1 ct"
        """
            + (emulate == null ? "" : "emulate = " + emulate + "\n"));
    Files.createDirectories(dir.resolve("d"));
    return DevicePool.load(file).device("d");
  }

  private Path data(Device device, int bytes) throws IOException {
    byte[] content = new byte[bytes];
    new Random(7).nextBytes(content);
    Path file = device.resolve("data.bin");
    Files.write(file, content);
    return file;
  }

  @Test
  void manyThreadsShareOneRate() throws Exception {
    Device device = device("{ read = \"200 MB/s\" }");
    int size = 24 << 20;
    Path file = data(device, size);
    AtomicInteger next = new AtomicInteger();
    List<Thread> readers = new ArrayList<>();
    long start = System.nanoTime();
    for (int t = 0; t < 4; t++) {
      Thread reader =
          new Thread(
              () -> {
                ByteBuffer buf = ByteBuffer.allocate(1 << 20);
                try (DeviceReadChannel ch = device.openForRead(file)) {
                  for (int i = next.getAndIncrement(); i < size >> 20; i = next.getAndIncrement()) {
                    buf.clear();
                    ch.readFully(buf, (long) i << 20);
                  }
                } catch (IOException e) {
                  throw new RuntimeException(e);
                }
              });
      reader.start();
      readers.add(reader);
    }
    for (Thread reader : readers) {
      reader.join();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    double floor = size / 200e6 - DeviceThrottle.BURST_NANOS / 1e9;
    assertThat(seconds).as("4 threads at 200 MB/s in total, never faster").isGreaterThan(floor);
  }

  @Test
  void chargesSeekForNonSequentialReadsOnly() throws IOException {
    Device device = device("{ read = \"1 GB/s\", seek = \"20 ms\" }");
    Path file = data(device, 1 << 20);
    try (DeviceReadChannel ch = device.openForRead(file)) {
      ByteBuffer buf = ByteBuffer.allocate(4096);
      long start = System.nanoTime();
      for (int i = 0; i < 5; i++) {
        buf.clear();
        ch.read(buf, (long) (4 - i) * 8192);
      }
      long random = System.nanoTime() - start;
      assertThat(random / 1e6).as("5 random reads with a 20 ms seek").isGreaterThan(97);

      start = System.nanoTime();
      for (int i = 0; i < 5; i++) {
        buf.clear();
        ch.read(buf, 40960 + i * 4096L);
      }
      long sequential = System.nanoTime() - start;
      // One seek to get there, then none: far less than five seeks.
      assertThat(sequential / 1e6).isLessThan(random / 1e6 / 2);
    }
  }

  @Test
  void deliversTheFileContent() throws IOException {
    for (String emulate : new String[] {null, "{ read = \"1 GB/s\" }"}) {
      Device device = device(emulate);
      Path file = data(device, 300_000);
      ByteBuffer buf = ByteBuffer.allocate(300_000);
      try (DeviceReadChannel ch = device.openForRead(file)) {
        assertThat(ch.readFully(buf, 0)).isEqualTo(300_000);
      }
      assertThat(buf.array()).isEqualTo(Files.readAllBytes(file));
      assertThat(device.emulated()).isEqualTo(emulate != null);
    }
  }

  @Test
  void aVanishedDeviceDirectoryIsNamed() throws IOException {
    Device device = device(null);
    Path file = data(device, 10);
    Files.delete(file);
    Files.delete(DeviceMarker.file(dir.resolve("d")));
    Files.delete(dir.resolve("d"));
    assertThatThrownBy(() -> device.openForRead(file))
        .isInstanceOf(NoSuchFileException.class)
        .hasMessageContaining("directory of device 'd' is gone; remount it or fix devices.toml");
  }

  @Test
  void keysAndPathsNameTheSameFilesOfALocalDevice() throws IOException {
    Device device = device("{ read = \"1 GB/s\" }");
    byte[] content = new byte[10_000];
    new Random(3).nextBytes(content);
    try (DeviceOutputStream out = device.openForWrite("t1/c0/seg.parquet")) {
      out.write(content);
      assertThat(out.path()).isEqualTo(device.resolve("t1/c0/seg.parquet"));
    }
    assertThat(device.usedBytes()).isGreaterThanOrEqualTo(content.length);
    assertThat(Files.readAllBytes(device.resolve("t1/c0/seg.parquet"))).isEqualTo(content);
    assertThat(device.key(device.resolve("t1/c0/seg.parquet"))).isEqualTo("t1/c0/seg.parquet");
    ByteBuffer back = ByteBuffer.allocate(content.length);
    try (DeviceReadChannel ch = device.openForRead("t1/c0/seg.parquet")) {
      ch.position(100);
      ByteBuffer first = ByteBuffer.allocate(50);
      assertThat(ch.read(first)).isEqualTo(50);
      assertThat(ch.position()).isEqualTo(150);
      assertThat(ch.readFully(back, 0)).isEqualTo(content.length);
    }
    assertThat(back.array()).isEqualTo(content);
    assertThatThrownBy(() -> device.openForRead(dir.resolve("elsewhere.bin")))
        .hasMessageContaining("is not on device 'd'");
    assertThatThrownBy(() -> device.openForWrite("t1/c0/seg.parquet"))
        .isInstanceOf(java.nio.file.FileAlreadyExistsException.class);
  }
}
