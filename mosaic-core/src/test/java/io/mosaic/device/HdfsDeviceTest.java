package io.mosaic.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.calibration.DeviceCalibrator;
import io.mosaic.config.Codec;
import io.mosaic.config.DeviceConfigException;
import io.mosaic.config.DeviceMarker;
import io.mosaic.model.DeviceModel;
import io.mosaic.storage.MiniHdfs;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Devices on HDFS (docs/configuration.md, "Devices on HDFS"), on one in-process cluster whose three
 * DataNodes have SSD, DISK and ARCHIVE volumes: each device's storage policy puts every block of
 * what is written through it on its storage type, reads come back through the device's I/O path,
 * calibration runs there, and what a person must fix is named with the device.
 */
class HdfsDeviceTest {
  private static final int BLOCK = (int) MiniHdfs.BLOCK_SIZE;

  @RegisterExtension static final MiniHdfs HDFS = MiniHdfs.shared();

  private static DistributedFileSystem fs;
  private static String nn;

  @TempDir Path dir;

  @BeforeAll
  static void connect() throws IOException {
    fs = HDFS.fileSystem();
    nn = HDFS.uri().toString().replaceAll("/$", "");
  }

  private static String device(String id, String folder, String... extra) {
    StringBuilder sb =
        new StringBuilder("[[device]]\nid = \"" + id + "\"\nuri = \"" + nn + folder + "\"\n");
    for (String line : extra) {
      sb.append(line).append('\n');
    }
    return sb.append("threads = 2\ncodec = \"lz4\"\ncost_per_gb = \"10 ct\"\n").toString();
  }

  private DevicePool load(String toml) throws IOException {
    Path file = dir.resolve("devices.toml");
    Files.writeString(file, toml);
    return DevicePool.load(file, HDFS.conf());
  }

  private static byte[] bytes(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static void write(Device device, String key, byte[] content) throws IOException {
    try (DeviceOutputStream out = device.openForWrite(key)) {
      // In pieces, as a segment writer does, across block boundaries.
      for (int off = 0; off < content.length; off += 300_000) {
        out.write(content, off, Math.min(300_000, content.length - off));
      }
    }
  }

  /** The storage type of every replica of every block of {@code file}, from HDFS itself. */
  private static List<StorageType> replicaTypes(String file) throws IOException {
    FileStatus status = fs.getFileStatus(new org.apache.hadoop.fs.Path(file));
    BlockLocation[] blocks = fs.getFileBlockLocations(status, 0, status.getLen());
    assertThat(blocks).as("blocks of " + file).hasSizeGreaterThan(1);
    return Arrays.stream(blocks).flatMap(b -> Arrays.stream(b.getStorageTypes())).toList();
  }

  @Test
  void eachDevicePutsEveryBlockOnItsStorageTypeAndReadsItBack() throws IOException {
    fs.mkdirs(new org.apache.hadoop.fs.Path("/pool/disk"));
    // The disk device takes its capacity from the folder's space quota (one replica per block).
    fs.setQuota(
        new org.apache.hadoop.fs.Path("/pool/disk"), HdfsConstants.QUOTA_DONT_SET, 64L << 20);
    DevicePool pool =
        load(
            device("fast", "/pool/fast", "storage_policy = \"ALL_SSD\"", "capacity = \"1 GB\"")
                + device("disk", "/pool/disk", "storage_policy = \"HOT\"")
                + device(
                    "archive",
                    "/pool/archive",
                    "storage_policy = \"COLD\"",
                    "capacity = \"1 GB\""));
    assertThat(pool.device("disk").spec().capacity().bytes()).isEqualTo(64L << 20);
    assertThat(pool.device("fast").spec().capacity().bytes()).isEqualTo(1_000_000_000L);
    Map<String, StorageType> types =
        Map.of("fast", StorageType.SSD, "disk", StorageType.DISK, "archive", StorageType.ARCHIVE);
    for (Device device : pool.devices()) {
      assertThat(
              fs.getStoragePolicy(new org.apache.hadoop.fs.Path("/pool/" + device.id())).getName())
          .isEqualTo(device.spec().storagePolicy().orElseThrow());
      assertThat(DeviceMarker.read(device.storage())).isEqualTo(device.identity());
      byte[] content = bytes(3 * BLOCK + 12345, device.id().hashCode());
      String key = "t1/c0/" + device.id() + ".parquet";
      write(device, key, content);
      assertThat(device.usedBytes()).isGreaterThanOrEqualTo(content.length);

      assertThat(replicaTypes("/pool/" + device.id() + "/" + key))
          .as("every replica of every block written through device " + device.id())
          .hasSize(4)
          .containsOnly(types.get(device.id()));

      ByteBuffer back = ByteBuffer.allocate(content.length);
      try (DeviceReadChannel ch = device.openForRead(key)) {
        assertThat(ch.size()).isEqualTo(content.length);
        assertThat(ch.readFully(back, 0)).isEqualTo(content.length);
        ByteBuffer tail = ByteBuffer.allocate(100);
        ch.position(content.length - 100);
        assertThat(ch.read(tail)).isEqualTo(100);
        assertThat(tail.array())
            .isEqualTo(Arrays.copyOfRange(content, content.length - 100, content.length));
      }
      assertThat(back.array()).isEqualTo(content);
    }
    // A Path is a local file: a device on HDFS refuses it instead of guessing.
    assertThatThrownBy(() -> pool.device("fast").root())
        .hasMessageContaining("device 'fast' is on " + nn + "/pool/fast, not a local directory");
  }

  @Test
  void calibratesAnHdfsDeviceThroughItsStorage() throws IOException {
    Device device =
        load(device("cal", "/pool/cal", "storage_policy = \"ALL_SSD\"", "capacity = \"1 GB\""))
            .device("cal");
    long before = device.usedBytes();
    DeviceCalibrator calibrator =
        new DeviceCalibrator(
            bytes(4 * BLOCK, 7),
            new DeviceCalibrator.Options(List.of(Codec.NONE, Codec.LZ4), 8),
            new DeviceCalibrator.Listener() {});
    DeviceModel model = calibrator.calibrate(device);
    assertThat(model.deviceId()).isEqualTo("cal");
    assertThat(model.raw().bytesPerSecond()).isPositive();
    assertThat(model.codecs()).containsKeys(Codec.NONE, Codec.LZ4);
    assertThat(device.storage().list(""))
        .extracting(s -> s.name())
        .containsExactly(DeviceMarker.FILE);
    assertThat(device.usedBytes()).isEqualTo(before);
  }

  @Test
  void aBlockOffThePolicysTypeFailsTheWrite() throws IOException {
    // No DataNode has NVDIMM: HDFS falls back to DISK, which the device must not take for its own.
    Device device =
        load(device("nv", "/pool/nv", "storage_policy = \"ALL_NVDIMM\"", "capacity = \"1 GB\""))
            .device("nv");
    assertThatThrownBy(() -> write(device, "t/x.parquet", bytes(2 * BLOCK, 1)))
        .isInstanceOf(DeviceFullException.class)
        .hasMessageContaining("file t/x.parquet written to device 'nv'")
        .hasMessageContaining("storage_policy ALL_NVDIMM) has 2 of 2 blocks with replicas on DISK")
        .hasMessageContaining("HDFS falls back to other storage types");
    assertThat(fs.exists(new org.apache.hadoop.fs.Path("/pool/nv/t/x.parquet"))).isFalse();
  }

  @Test
  void fullDevicesAndAFullQuotaNameTheDeviceAndTheFix() throws IOException {
    fs.mkdirs(new org.apache.hadoop.fs.Path("/pool/quota"));
    DevicePool pool =
        load(
            device("small", "/pool/small", "storage_policy = \"HOT\"", "capacity = \"1 MB\"")
                + device("quota", "/pool/quota", "capacity = \"1 GB\""));
    assertThatThrownBy(() -> write(pool.device("small"), "t/a", bytes(2 * BLOCK, 2)))
        .isInstanceOf(DeviceFullException.class)
        .hasMessageContaining("device 'small' is full: capacity 1 MB")
        .hasMessageContaining("raise its capacity in devices.toml");
    // A quota lowered after the pool was loaded: HDFS refuses the block, named as the device's.
    fs.setQuota(
        new org.apache.hadoop.fs.Path("/pool/quota"), HdfsConstants.QUOTA_DONT_SET, BLOCK / 2);
    assertThatThrownBy(() -> write(pool.device("quota"), "t/b", bytes(2 * BLOCK, 3)))
        .isInstanceOf(DeviceFullException.class)
        .hasMessageContaining("device 'quota' (" + nn + "/pool/quota) has no quota left")
        .hasMessageContaining("hdfs dfsadmin -setSpaceQuota");
  }

  @Test
  void aBadPolicyAnUnreachableNameNodeAndNoCapacityNameTheDevice() throws IOException {
    assertThatThrownBy(
            () ->
                load(
                    device("bad", "/pool/bad", "storage_policy = \"FAST\"", "capacity = \"1 GB\"")))
        .isInstanceOf(DeviceConfigException.class)
        .hasMessageContaining(
            "device 'bad' field 'storage_policy': bad value \"FAST\": HDFS has no")
        .hasMessageContaining("use one of ALL_NVDIMM, LAZY_PERSIST, ALL_SSD");
    assertThatThrownBy(() -> load(device("none", "/pool/none", "storage_policy = \"HOT\"")))
        .isInstanceOf(DeviceConfigException.class)
        .hasMessageContaining(
            "device 'none' field 'capacity': missing, and " + nn + "/pool/none has no quota")
        .hasMessageContaining("set capacity = \"60 GB\", or a quota on the folder");
    assertThatThrownBy(
            () ->
                load(
                    device("gone", "/pool/gone", "capacity = \"1 GB\"")
                        .replace(nn, "hdfs://localhost:1")))
        .isInstanceOf(DeviceConfigException.class)
        .hasMessageContaining("device 'gone' field 'uri': cannot open hdfs://localhost:1/pool/gone")
        .hasMessageContaining("unreachable")
        .hasMessageContaining("check the host and port in the URI");
  }
}
