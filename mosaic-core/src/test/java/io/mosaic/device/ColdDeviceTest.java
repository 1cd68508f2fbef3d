package io.mosaic.device;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.config.Bandwidth;
import io.mosaic.config.ColdSpec;
import io.mosaic.config.Latency;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cold device's emulation on real files: one active disk group, a switch before a read of any
 * other group, during which the device serves nothing else; the switches counted. Lower bounds on
 * time only (the sleeps they come from are certain; upper bounds would be flaky on a busy machine).
 */
class ColdDeviceTest {
  private static final long SWITCH_NANOS = 100_000_000L;

  @TempDir Path dir;

  private Device coldDevice() throws IOException {
    Path file = dir.resolve("devices.toml");
    Files.writeString(
        file,
        """
        [[device]]
        id = "warm"
        path = "warm"
        capacity = "1 GB"
        threads = 2
        codec = "none"
        cost_per_gb = "10 ct"
        metadata = true
        emulate = { read = "4 GB/s" }

        [[device]]
        id = "csd"
        path = "csd"
        capacity = "1 GB"
        threads = 2
        codec = "none"
        cost_per_gb = "1 ct"
        cold = { groups = 4, switch = "100 ms", read = "1 GB/s" }
        """);
    return DevicePool.load(file).device("csd");
  }

  private static byte[] data(Device device, String relative, int bytes) throws IOException {
    byte[] content = new byte[bytes];
    new Random(relative.hashCode()).nextBytes(content);
    Path file = device.resolve(relative);
    Files.createDirectories(file.getParent());
    Files.write(file, content);
    return content;
  }

  private static void readAll(Device device, String relative, byte[] expected) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(expected.length);
    try (DeviceReadChannel ch = device.openForRead(device.resolve(relative))) {
      assertThat(ch.readFully(buf, 0)).isEqualTo(expected.length);
    }
    assertThat(buf.array()).isEqualTo(expected);
  }

  @Test
  void theGroupOfAFileIsTheCrc32OfItsPathModuloTheGroups() throws IOException {
    // CRC-32 (as zlib.crc32 computes it) of the paths: 1003900091, 2799283661, 3669526550,
    // 1203202400. The rule places data, so it must never change.
    ColdSpec spec = new ColdSpec(4, Latency.ofMillis(100), Bandwidth.parse("1 GB/s"));
    assertThat(spec.groupOf("a/0/w1-0.parquet")).isEqualTo(3);
    assertThat(spec.groupOf("a/1/w1-0.parquet")).isEqualTo(1);
    assertThat(spec.groupOf("a/2/w1-0.parquet")).isEqualTo(2);
    assertThat(spec.groupOf("a/3/w1-0.parquet")).isEqualTo(0);
    Device device = coldDevice();
    assertThat(device.cold()).isTrue();
    assertThat(device.groupOf(device.resolve("a/0/w1-0.parquet"))).isEqualTo(3);
    assertThat(device.groupOf(device.root().resolve("a/./x/../3/w1-0.parquet"))).isEqualTo(0);
  }

  @Test
  void readingAnotherGroupCostsASwitchAndTheSameGroupNone() throws IOException {
    Device device = coldDevice();
    byte[] a = data(device, "a/0/w1-0.parquet", 64 << 10); // group 3
    byte[] a2 = data(device, "b/7/w9-0.parquet", 64 << 10);
    byte[] b = data(device, "a/3/w1-0.parquet", 64 << 10); // group 0
    int groupA = device.groupOf(device.resolve("a/0/w1-0.parquet"));
    String sameGroupAsA = "b/7/w9-0.parquet";
    // Find a second file of a's group by the rule itself (names are what a writer would give).
    for (int i = 0; device.groupOf(device.resolve(sameGroupAsA)) != groupA; i++) {
      sameGroupAsA = "b/7/w" + i + "-0.parquet";
      a2 = data(device, sameGroupAsA, 64 << 10);
    }
    assertThat(device.groupSwitches()).isZero();

    long start = System.nanoTime();
    readAll(device, "a/0/w1-0.parquet", a); // spins group 3 up: a switch
    readAll(device, sameGroupAsA, a2); // same group: none
    readAll(device, "a/0/w1-0.parquet", a);
    assertThat(device.groupSwitches()).isEqualTo(1);
    readAll(device, "a/3/w1-0.parquet", b); // group 0
    readAll(device, "a/0/w1-0.parquet", a); // back to group 3
    readAll(device, "a/3/w1-0.parquet", b); // group 0 again
    long elapsed = System.nanoTime() - start;
    assertThat(device.groupSwitches()).isEqualTo(4);
    assertThat(elapsed).isGreaterThanOrEqualTo(4 * SWITCH_NANOS);
  }

  @Test
  void whileOneGroupSpinsUpTheDeviceServesNoOtherGroup() throws Exception {
    Device device = coldDevice();
    byte[] a = data(device, "a/0/w1-0.parquet", 4 << 10); // group 3
    byte[] b = data(device, "a/3/w1-0.parquet", 4 << 10); // group 0
    AtomicLong firstDone = new AtomicLong(Long.MIN_VALUE);
    long start = System.nanoTime();
    Thread first =
        new Thread(
            () -> {
              try {
                readAll(device, "a/0/w1-0.parquet", a);
                firstDone.set(System.nanoTime());
              } catch (IOException e) {
                throw new RuntimeException(e);
              }
            });
    first.start();
    // Once the first read has booked its switch, a read of another group queues behind it.
    while (device.groupSwitches() == 0) {
      Thread.onSpinWait();
    }
    readAll(device, "a/3/w1-0.parquet", b);
    long secondDone = System.nanoTime();
    first.join();
    assertThat(firstDone.get()).as("first read done").isNotEqualTo(Long.MIN_VALUE);
    assertThat(device.groupSwitches()).isEqualTo(2);
    assertThat(firstDone.get() - start).isGreaterThanOrEqualTo(SWITCH_NANOS);
    // Its own switch could only begin when the first one's switch and read had ended.
    assertThat(secondDone - start).isGreaterThanOrEqualTo(2 * SWITCH_NANOS);
  }
}
