package io.mosaic.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.device.DevicePool;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeviceConfigParserTest {
  @TempDir Path dir;

  private Path write(String toml) throws IOException {
    Path file = dir.resolve("devices.toml");
    Files.writeString(file, toml);
    return file;
  }

  private List<String> problems(String toml) throws IOException {
    Path file = write(toml);
    try {
      DeviceConfigParser.parsePool(file);
    } catch (DeviceConfigException e) {
      return e.problems().stream().map(p -> p.toString().replace(file.toString(), "F")).toList();
    }
    throw new AssertionError("expected the configuration to be rejected");
  }

  private static String device(String id, String... extra) {
    StringBuilder sb = new StringBuilder("[[device]]\nid = \"" + id + "\"\n");
    sb.append("path = \"").append(id).append("\"\n");
    sb.append("emulate = { read = \"100 MB/s\" }\n");
    boolean capacity = true;
    boolean codec = true;
    for (String line : extra) {
      capacity &= !line.startsWith("capacity");
      codec &= !line.startsWith("codec");
      sb.append(line).append('\n');
    }
    if (capacity) {
      sb.append("capacity = \"10 GB\"\n");
    }
    if (codec) {
      sb.append("codec = \"zstd\"\n");
    }
    return sb.append("threads = 2\ncost_per_gb = \"60 ct\"\n").toString();
  }

  /** A device with {@code cold = value} instead of emulate. */
  private static String coldDevice(String id, String value, String... extra) {
    return device(id, extra)
        .replace(
            "emulate = { read = \"100 MB/s\" }\n", value == null ? "" : "cold = " + value + "\n");
  }

  /** A warm device holding the metadata, then cold devices a, b, ... with these cold tables. */
  private static String warmThenCold(String... colds) {
    StringBuilder toml = new StringBuilder(device("warm", "metadata = true"));
    for (int i = 0; i < colds.length; i++) {
      toml.append(coldDevice(String.valueOf((char) ('a' + i)), colds[i]));
    }
    return toml.toString();
  }

  @Test
  void readsAColdDeviceAndCreatesItsDirectory() throws IOException {
    Path file =
        write(
            device("warm", "metadata = true")
                + coldDevice(
                    "csd",
                    "{ groups = 4, switch = \"10 s\", read = \"100 MB/s\" }",
                    "seek = \"8 ms\""));
    List<DeviceSpec> specs = DeviceConfigParser.parsePool(file);
    assertThat(specs.get(0).cold()).isEmpty();
    DeviceSpec csd = specs.get(1);
    assertThat(csd.cold())
        .contains(new ColdSpec(4, Latency.ofMillis(10_000), Bandwidth.parse("100 MB/s")));
    assertThat(csd.emulation()).isEmpty();
    assertThat(csd.seek()).isEqualTo(Latency.ofMillis(8));
    assertThat(csd.costPerGb()).isEqualTo(Cost.ofCents(60));
    assertThat(dir.resolve("csd")).as("a cold device's directory is emulated").isDirectory();
    // The same table written as a sub-table of the [[device]].
    Path again =
        write(
            device("warm", "metadata = true")
                + coldDevice("csd", null, "seek = \"8 ms\"")
                + "[device.cold]\ngroups = 4\nswitch = \"10 s\"\nread = \"100 MB/s\"\n");
    assertThat(DeviceConfigParser.parsePool(again)).isEqualTo(specs);
  }

  @Test
  void badColdTablesNameTheKeyTheProblemAndTheFix() throws IOException {
    assertThat(
            problems(
                warmThenCold(
                    "{ groups = 1, switch = \"-2 s\", read = \"100 MB\" }",
                    "{ groups = 2000, switch = \"0 s\", read = \"1 GB/s\" }",
                    "{ groups = \"4\", switch = \"900 s\", read = \"1 GB/s\" }",
                    "{ groups = 4, swich = \"10 s\" }",
                    "\"10 s\"")))
        .containsExactly(
            "F:13: device 'a' field 'cold.groups': bad value 1: a cold device needs at least 2 disk"
                + " groups (with one it never switches): give its number of groups, or drop cold"
                + " and describe it as a warm device",
            "F:13: device 'a' field 'cold.switch': bad value \"-2 s\": must not be negative",
            "F:13: device 'a' field 'cold.read': bad value \"100 MB\": unknown unit 'MB'; allowed:"
                + " B/s, kB/s, KiB/s, MB/s, MiB/s, GB/s, GiB/s, TB/s, TiB/s, PB/s (e.g. \"1.2 GB/s\")",
            "F:21: device 'b' field 'cold.groups': bad value 2000: at most 1024 disk groups; give"
                + " the device's number of groups",
            "F:21: device 'b' field 'cold.switch': bad value \"0 s\": must be above zero (a device"
                + " whose groups switch for free is not cold): give the switch time, like \"10 s\","
                + " or drop cold",
            "F:29: device 'c' field 'cold.groups': bad value \"4\": expected a whole number of disk"
                + " groups, like groups = 4",
            "F:29: device 'c' field 'cold.switch': bad value \"900 s\": too long; a group switch"
                + " spins disks down and up in seconds (Pelican: 8 s), at most 600 s: check the"
                + " unit, like \"10 s\"",
            "F:37: device 'd' field 'cold': unknown field 'swich'; allowed: groups, layout, policy,"
                + " read, switch",
            "F:37: device 'd' field 'cold': missing 'switch'; a cold device needs groups, switch"
                + " and read, e.g. cold = { groups = 4, switch = \"10 s\", read = \"100 MB/s\" }",
            "F:37: device 'd' field 'cold': missing 'read'; a cold device needs groups, switch"
                + " and read, e.g. cold = { groups = 4, switch = \"10 s\", read = \"100 MB/s\" }",
            "F:45: device 'e' field 'cold': bad value \"10 s\": expected a table like { groups ="
                + " 4, switch = \"10 s\", read = \"100 MB/s\" }");
  }

  @Test
  void aColdDevicesSchedulerPolicyIsRankUnlessGiven() throws IOException {
    String base = "{ groups = 4, switch = \"10 s\", read = \"100 MB/s\"";
    List<DeviceSpec> specs =
        DeviceConfigParser.parsePool(
            write(
                warmThenCold(
                    base + " }",
                    base + ", policy = \"Max-Queries\" }",
                    base + ", policy = \"none\" }")));
    assertThat(specs.get(1).cold().orElseThrow().scheduler()).contains(GroupPolicy.RANK);
    assertThat(specs.get(2).cold().orElseThrow().scheduler()).contains(GroupPolicy.MAX_QUERIES);
    assertThat(specs.get(3).cold().orElseThrow().scheduler()).isEmpty();
    assertThat(specs.get(3).cold().orElseThrow().policyName()).isEqualTo("none");
    assertThat(problems(warmThenCold(base + ", policy = \"sjf\" }", base + ", policy = 1 }")))
        .containsExactly(
            "F:13: device 'a' field 'cold.policy': bad value \"sjf\": group scheduling policy"
                + " 'sjf' is unknown; use one of rank (the default, Skipper's Eq. 1), max-queries,"
                + " fcfs, or none (no scheduler: reads in arrival order)",
            "F:21: device 'b' field 'cold.policy': bad value 1: expected a string naming the group"
                + " scheduling policy, like policy = \"rank\"");
  }

  @Test
  void aColdDevicesLayoutSpreadsSegmentsUnlessItKeepsTablesTogether() throws IOException {
    String base = "{ groups = 4, switch = \"10 s\", read = \"100 MB/s\"";
    List<DeviceSpec> specs =
        DeviceConfigParser.parsePool(
            write(warmThenCold(base + " }", base + ", layout = \"Table\" }")));
    ColdSpec spread = specs.get(1).cold().orElseThrow();
    ColdSpec tables = specs.get(2).cold().orElseThrow();
    assertThat(spread.layout()).isEqualTo(ColdSpec.Layout.SEGMENT);
    assertThat(tables.layout()).isEqualTo(ColdSpec.Layout.TABLE);
    // Sixteen segments of one table: spread over the groups, or all in the table's group.
    String table = "0b7c3f9e-2a41-4d6b-9c8e-5f1a2b3c4d5e";
    java.util.Set<Integer> spreadGroups = new java.util.HashSet<>();
    java.util.Set<Integer> tableGroups = new java.util.HashSet<>();
    for (int column = 0; column < 4; column++) {
      for (int n = 0; n < 4; n++) {
        String path = table + "/" + column + "/w" + n + "-" + n + ".parquet";
        spreadGroups.add(spread.groupOf(path));
        tableGroups.add(tables.groupOf(path));
      }
    }
    assertThat(spreadGroups).hasSizeGreaterThan(1);
    assertThat(tableGroups).containsExactly(tables.groupOf(table));
    assertThat(problems(warmThenCold(base + ", layout = \"column\" }", base + ", layout = 2 }")))
        .containsExactly(
            "F:13: device 'a' field 'cold.layout': bad value \"column\": cold device layout"
                + " 'column' is unknown; use segment (the default: each segment file in a group of"
                + " its own) or table (each table's files in one group)",
            "F:21: device 'b' field 'cold.layout': bad value 2: expected a string naming how the"
                + " device puts files in disk groups, like layout = \"table\"");
  }

  @Test
  void aColdDeviceIsNotEmulatedTwiceAndHoldsNoMetadata() throws IOException {
    String cold = "{ groups = 4, switch = \"10 s\", read = \"100 MB/s\" }";
    assertThat(
            problems(
                device("warm")
                    + coldDevice("a", cold, "emulate = { read = \"1 GB/s\" }")
                    + coldDevice("b", cold, "metadata = true")))
        .containsExactly(
            "F:13: device 'a' field 'emulate': bad value { read = \"1 GB/s\" }: a cold device is"
                + " emulated by its cold table (read: the active group's rate, switch: the group"
                + " switch); remove emulate",
            "F:22: device 'b' field 'metadata': bad value true: a cold device cannot hold table"
                + " metadata (manifests, traces and the device model are read by every query, each"
                + " read could wait for a group switch); mark a warm device (one without cold)"
                + " metadata = true");
    // Without metadata = true anywhere, the first device would hold the metadata.
    assertThat(problems(coldDevice("a", cold) + device("warm")))
        .containsExactly(
            "F:1: device 'a' field 'metadata': no device sets metadata = true, so the first device"
                + " listed would hold table metadata, but it is cold (a group switch could stall"
                + " every query); mark a warm device (one without cold) metadata = true, adding"
                + " one if the pool has none");
    assertThat(
            DeviceConfigParser.parsePool(
                write(coldDevice("a", cold) + device("warm", "metadata = true"))))
        .extracting(DeviceSpec::metadata)
        .containsExactly(false, true);
  }

  @Test
  void readsAFullEntryWithUnitsAndResolvesPathsNextToTheFile() throws IOException {
    Files.createDirectories(dir.resolve("mnt/nvme"));
    Path file =
        write(
            """
            [[device]]
            id = 0
            name = "NVMe SSD"
            path = "mnt/nvme"
            capacity = "60 GB"
            threads = 8
            codec = "ZSTD"
            cost_per_gb = "60 ct"
            seek = "0.1 ms"
            metadata = true

            [[device]]
            id = "hdd"
            path = "mnt/hdd"
            capacity = "2 TB"
            threads = 1
            codec = "lz4"
            cost_per_gb = 30
            emulate = { read = "230 MB/s", seek = "8 ms" }
            """);
    List<DeviceSpec> specs = DeviceConfigParser.parsePool(file);
    assertThat(specs)
        .containsExactly(
            new DeviceSpec(
                "0",
                "NVMe SSD",
                dir.resolve("mnt/nvme"),
                ByteSize.parse("60 GB"),
                8,
                Codec.ZSTD,
                Cost.ofCents(60),
                Latency.ofMillis(0.1),
                true,
                Optional.empty()),
            new DeviceSpec(
                "hdd",
                "hdd",
                dir.resolve("mnt/hdd"),
                ByteSize.parse("2 TB"),
                1,
                Codec.LZ4,
                Cost.ofCents(30),
                Latency.ZERO,
                false,
                Optional.of(new Emulation(Bandwidth.parse("230 MB/s"), Latency.ofMillis(8)))));
    assertThat(dir.resolve("mnt/hdd")).as("emulated device directory is created").isDirectory();
  }

  @Test
  void missingPath() throws IOException {
    assertThat(
            problems(
                """
                [[device]]
                id = "ssd"
                capacity = "10 GB"
                threads = 4
                codec = "lz4"
                cost_per_gb = "60 ct"
                """))
        .containsExactly(
            "F:1: device 'ssd' field 'path': missing; every [[device]] needs one, e.g."
                + " path = \"/mnt/nvme/mosaic\" (a local directory) or uri ="
                + " \"hdfs://nn:8020/mosaic/fast\" (a folder on HDFS)");
  }

  /** A device on a storage: {@code uri} and the lines given, instead of path and emulate. */
  private static String remote(String id, String uri, String... extra) {
    return device(id, extra)
        .replace("path = \"" + id + "\"\n", uri == null ? "" : "uri = \"" + uri + "\"\n")
        .replace("emulate = { read = \"100 MB/s\" }\n", "");
  }

  @Test
  void readsDevicesOnHdfsWithTheirPolicyAndFileUrisAsPaths() throws IOException {
    Path local = dir.resolve("local");
    Files.createDirectories(local);
    List<DeviceSpec> specs =
        DeviceConfigParser.parsePool(
            write(
                remote("fast", "hdfs://nn:8020/mosaic/fast/", "storage_policy = \"ALL_SSD\"")
                    + remote("slow", "hdfs://nn:8020/mosaic/slow")
                        .replace("capacity = \"10 GB\"\n", "")
                    + remote("here", local.toUri().toString())));
    assertThat(specs.get(0).location()).hasToString("hdfs://nn:8020/mosaic/fast");
    assertThat(specs.get(0).storagePolicy()).contains("ALL_SSD");
    assertThat(specs.get(0).local()).isFalse();
    assertThat(specs.get(1).capacity()).as("the quota may give it, when loaded").isNull();
    assertThat(specs.get(1).storagePolicy()).isEmpty();
    assertThat(specs.get(2).local()).isTrue();
    assertThat(specs.get(2).path()).isEqualTo(local);
    assertThatThrownBy(() -> specs.get(0).path())
        .hasMessageContaining("device 'fast' is on hdfs://nn:8020/mosaic/fast, not a local")
        .hasMessageContaining("use the device's storage and keys");
  }

  @Test
  void readsDevicesOnS3WithTheirStorageClass() throws IOException {
    List<DeviceSpec> specs =
        DeviceConfigParser.parsePool(
            write(
                remote("warm", "s3://bucket/mosaic/warm", "storage_class = \"standard_ia\"")
                    + remote("hot", "s3a://bucket/mosaic/hot")));
    assertThat(specs.get(0).location()).hasToString("s3://bucket/mosaic/warm");
    assertThat(specs.get(0).storageClass()).contains("STANDARD_IA");
    assertThat(specs.get(0).local()).isFalse();
    assertThat(specs.get(1).storageClass()).isEmpty();
  }

  @Test
  void refusesStorageClassesThatNeedARestoreOrAreNotS3s() throws IOException {
    String local = Files.createDirectories(dir.resolve("local")).toUri().toString();
    List<String> found =
        problems(
            remote("archive", "s3://bucket/m/archive", "storage_class = \"GLACIER\"")
                + remote("deep", "s3://bucket/m/deep", "storage_class = \"DEEP_ARCHIVE\"")
                + remote("typo", "s3://bucket/m/typo", "storage_class = \"STANDARD_AI\"")
                + remote("hdfs", "hdfs://nn:8020/m/hdfs", "storage_class = \"STANDARD\"")
                + remote("here", local, "storage_class = \"STANDARD\""));
    assertThat(found).hasSize(5);
    assertThat(found.get(0))
        .startsWith("F:4: device 'archive' field 'storage_class': bad value \"GLACIER\": S3 must")
        .contains("restore an object of this class before any read")
        .contains("STANDARD, STANDARD_IA, ONEZONE_IA, INTELLIGENT_TIERING, GLACIER_IR")
        .contains("EXPRESS_ONEZONE in a directory bucket");
    assertThat(found.get(1)).contains("device 'deep'").contains("\"DEEP_ARCHIVE\": S3 must");
    assertThat(found.get(2))
        .contains("device 'typo'")
        .contains("not an S3 storage class a device can use; use one of STANDARD");
    assertThat(found.get(3))
        .contains("device 'hdfs'")
        .contains("storage classes are S3's; remove storage_class");
    assertThat(found.get(4)).contains("device 'here'").contains("storage classes are S3's");
  }

  @Test
  void refusesWrongLocationsAndPolicies() throws IOException {
    String local = Files.createDirectories(dir.resolve("local")).toUri().toString();
    assertThat(
            problems(
                device("both", "uri = \"hdfs://nn:8020/m/both\"")
                    + remote("neither", null)
                    + remote("space", "hdfs://nn:8020/m/a b")
                    + remote("relative", "mosaic/fast")
                    + remote("scheme", "gopher://nn/m/x")
                    + remote("root", "hdfs://nn:8020/")
                    + remote("local", local, "storage_policy = \"ALL_SSD\"")
                    + device("path", "storage_policy = \"HOT\"")
                    + remote("outer", "hdfs://nn:8020/m/outer")
                    + remote("nested", "hdfs://nn:8020/m/outer/inner")
                    + remote("nocap", local + "2").replace("capacity = \"10 GB\"\n", "")
                    + remote("nohost", "hdfs:///m/x")))
        .containsExactly(
            "F:5: device 'both' field 'uri': bad value \"hdfs://nn:8020/m/both\": the device also"
                + " has path = \"both\"; give either path (a local directory) or uri (a folder on a"
                + " storage), not both",
            "F:10: device 'neither' field 'path': missing; every [[device]] needs one, e.g. path ="
                + " \"/mnt/nvme/mosaic\" (a local directory) or uri ="
                + " \"hdfs://nn:8020/mosaic/fast\" (a folder on HDFS)",
            "F:18: device 'space' field 'uri': bad value \"hdfs://nn:8020/m/a b\": not a valid URI"
                + " (Illegal character in path at index 18); write it like uri ="
                + " \"hdfs://nn:8020/mosaic/fast\", with special characters %-escaped",
            "F:25: device 'relative' field 'uri': bad value \"mosaic/fast\": no scheme; write uri ="
                + " \"hdfs://nn:8020/mosaic/fast\", or path = \"mosaic/fast\" for a local directory",
            "F:32: device 'scheme' field 'uri': bad value \"gopher://nn/m/x\": no storage backend"
                + " serves scheme 'gopher'; devices live on local directories (path, or file:) and"
                + " on the file systems Hadoop has (hdfs:, s3: with hadoop-aws, ...): fix the scheme,"
                + " or put that file system's Hadoop client on the class path",
            "F:39: device 'root' field 'uri': bad value \"hdfs://nn:8020/\": names no folder of its"
                + " own (the root, or above it); give the device's own folder, like uri ="
                + " \"hdfs://nn:8020/mosaic/fast\"",
            "F:47: device 'local' field 'storage_policy': bad value \"ALL_SSD\": the device is a"
                + " local directory, which has no storage policies; remove storage_policy, or put"
                + " the device on HDFS with uri = \"hdfs://nn:8020/mosaic/fast\"",
            "F:56: device 'path' field 'storage_policy': bad value \"HOT\": the device is a local"
                + " directory, which has no storage policies; remove storage_policy, or put the"
                + " device on HDFS with uri = \"hdfs://nn:8020/mosaic/fast\"",
            "F:77: device 'nocap' field 'uri': bad value \""
                + dir.resolve("local/2")
                + "\": directory does not exist; mount the device there or fix the path",
            "F:75: device 'nocap' field 'capacity': missing; every [[device]] needs one, e.g."
                + " capacity = \"60 GB\"",
            "F:83: device 'nohost' field 'uri': bad value \"hdfs:///m/x\": names no host; write"
                + " hdfs://host:port/folder, like uri = \"hdfs://nn:8020/mosaic/fast\"",
            "F:70: device 'nested' field 'uri': bad value \"hdfs://nn:8020/m/outer/inner\": nests"
                + " with the folder of device 'outer' (\"hdfs://nn:8020/m/outer\"); device folders"
                + " must be distinct and must not nest (gc would take one device's files for the"
                + " other's): give each device its own folder");
  }

  @Test
  void pathThatDoesNotExist() throws IOException {
    assertThat(
            problems(
                """
                [[device]]
                id = "ssd"
                path = "/no/such/mount"
                capacity = "10 GB"
                threads = 4
                codec = "lz4"
                cost_per_gb = "60 ct"
                """))
        .containsExactly(
            "F:3: device 'ssd' field 'path': bad value \"/no/such/mount\": directory does not exist;"
                + " mount the device there or fix the path");
  }

  @Test
  void pathNotWritable() throws IOException {
    // /proc/self accepts no new files, even for root, so this holds however the tests run.
    assertThat(
            problems(
                """
                [[device]]
                id = "ssd"
                path = "/proc/self"
                capacity = "10 GB"
                threads = 4
                codec = "lz4"
                cost_per_gb = "60 ct"
                """))
        .singleElement()
        .asString()
        .startsWith("F:3: device 'ssd' field 'path': bad value \"/proc/self\": not writable (")
        .endsWith("); Mosaic needs to write segments there");
  }

  @Test
  void pathThatIsAFile() throws IOException {
    Files.writeString(dir.resolve("plain"), "x");
    assertThat(problems(device("a").replace("path = \"a\"", "path = \"plain\"")))
        .containsExactly(
            "F:3: device 'a' field 'path': bad value \""
                + dir.resolve("plain")
                    .toString()
                    .replace(dir.resolve("devices.toml").toString(), "F")
                + "\": not a directory; give the device's mount point");
  }

  @Test
  void duplicateId() throws IOException {
    assertThat(problems(device("a") + device("a").replace("path = \"a\"", "path = \"b\"")))
        .containsExactly(
            "F:10: device 'a' field 'id': bad value \"a\": duplicate id, also used on line 2;"
                + " ids must be unique");
  }

  @Test
  void twoDevicesOnOneDirectory() throws IOException {
    assertThat(problems(device("a") + device("b").replace("path = \"b\"", "path = \"a\"")))
        .containsExactly(
            "F:11: device 'b' field 'path': same directory as device 'a'; give each device its own");
  }

  @Test
  void negativeAndZeroCapacity() throws IOException {
    assertThat(
            problems(
                device("a", "capacity = \"-5 GB\"")
                    + device("b", "capacity = \"0 GB\"")
                    + device("c", "capacity = 60")))
        .containsExactly(
            "F:5: device 'a' field 'capacity': bad value \"-5 GB\": must not be negative",
            "F:13: device 'b' field 'capacity': bad value \"0 B\": must be greater than zero",
            "F:21: device 'c' field 'capacity': bad value 60: a number needs a unit;"
                + " write it as a string like \"60 GB\"");
  }

  @Test
  void unknownCodec() throws IOException {
    assertThat(problems(device("a", "codec = \"snappy\"")))
        .containsExactly(
            "F:5: device 'a' field 'codec': bad value \"snappy\": unknown codec;"
                + " allowed: none, lz4, zstd");
  }

  @Test
  void unitTypos() throws IOException {
    assertThat(
            problems(
                device("a", "capacity = \"60 GG\"", "seek = \"8 mss\"")
                    .replace("100 MB/s", "100 MB")))
        .containsExactly(
            "F:4: device 'a' field 'emulate': bad value { read = \"100 MB\" }: read \"100 MB\":"
                + " unknown unit 'MB'; allowed: B/s, kB/s, KiB/s, MB/s, MiB/s, GB/s, GiB/s, TB/s,"
                + " TiB/s, PB/s (e.g. \"1.2 GB/s\")",
            "F:5: device 'a' field 'capacity': bad value \"60 GG\": unknown unit 'GG';"
                + " allowed: B, kB, KiB, MB, MiB, GB, GiB, TB, TiB, PB (e.g. \"60 GB\")",
            "F:6: device 'a' field 'seek': bad value \"8 mss\": unknown unit 'mss';"
                + " allowed: ns, us, ms, s (e.g. \"8 ms\")");
  }

  @Test
  void capacityThatOverflowsADouble() throws IOException {
    assertThat(problems(device("a", "capacity = \"1e400 GB\"")))
        .containsExactly(
            "F:5: device 'a' field 'capacity': bad value \"1e400 GB\": too large;"
                + " a size must be at most 1000 PB (1 EB)");
  }

  @Test
  void capacityBeyondAnExabyte() throws IOException {
    assertThat(
            problems(
                device("a", "capacity = \"9999999999999999999999 PB\"")
                    + device("b", "capacity = \"1000 PB\"")))
        .containsExactly(
            "F:5: device 'a' field 'capacity': bad value \"9999999999999999999999 PB\": too large;"
                + " a size must be at most 1000 PB (1 EB)");
  }

  @Test
  void seekLongerThanAnHour() throws IOException {
    assertThat(problems(device("a", "seek = \"1e300 s\"") + device("b", "seek = \"3600 s\"")))
        .containsExactly(
            "F:5: device 'a' field 'seek': bad value \"1e300 s\": too long;"
                + " a latency must be at most 1 hour (3600 s)");
  }

  @Test
  void emulatedRateBelowOneBytePerSecond() throws IOException {
    assertThat(
            problems(
                device("a").replace("100 MB/s", "1e-300 B/s")
                    + device("b").replace("100 MB/s", "1 B/s")))
        .containsExactly(
            "F:4: device 'a' field 'emulate': bad value { read = \"1e-300 B/s\" }:"
                + " read \"1e-300 B/s\": too slow; a rate must be at least 1 B/s");
  }

  @Test
  void codecWithATrailingSpace() throws IOException {
    assertThat(problems(device("a", "codec = \"lz4 \"") + device("b", "codec = \" zstd\"")))
        .containsExactly(
            "F:5: device 'a' field 'codec': bad value \"lz4 \": trailing whitespace;"
                + " allowed: none, lz4, zstd, written exactly, without spaces or control characters",
            "F:13: device 'b' field 'codec': bad value \" zstd\": leading whitespace;"
                + " allowed: none, lz4, zstd, written exactly, without spaces or control characters");
  }

  @Test
  void codecWithAControlCharacter() throws IOException {
    // The TOML escape \\u0000 puts a NUL into the string; the message shows it escaped again.
    assertThat(problems(device("a", "codec = \"lz4\\u0000\"")))
        .containsExactly(
            "F:5: device 'a' field 'codec': bad value \"lz4\\u0000\": contains the control"
                + " character U+0000; allowed: none, lz4, zstd, written exactly, without spaces or control characters");
  }

  @Test
  void negativeNumericId() throws IOException {
    assertThat(problems(device("a").replace("id = \"a\"", "id = -1")))
        .containsExactly(
            "F:2: field 'id': bad value -1: a numeric id must be a device number, 0 or more;"
                + " otherwise write the id as a string, like id = \"nvme\"");
  }

  @Test
  void idOfTheWrongType() throws IOException {
    assertThat(
            problems(
                device("a").replace("id = \"a\"", "id = 1.5")
                    + device("b").replace("id = \"b\"", "id = true")))
        .containsExactly(
            "F:2: field 'id': bad value 1.5: expected a quoted string like id = \"nvme\""
                + " (or a device number 0, 1, ...)",
            "F:10: field 'id': bad value true: expected a quoted string like id = \"nvme\""
                + " (or a device number 0, 1, ...)");
  }

  @Test
  void costInAnUnknownCurrency() throws IOException {
    assertThat(
            problems(
                device("a").replace("\"60 ct\"", "\"60 €\"")
                    + device("b").replace("\"60 ct\"", "\"0.6 EUR\"")))
        .containsExactly(
            "F:8: device 'a' field 'cost_per_gb': bad value \"60 €\": unknown currency unit '€';"
                + " allowed: ct, EUR, USD or a bare number (a relative price), e.g. \"60 ct\" or"
                + " \"0.6 EUR\"; the planner keeps costs in cents (ct), and EUR and USD count as"
                + " 100 ct each, without exchange rates");
  }

  @Test
  void costThatIsNotAFiniteNumber() throws IOException {
    assertThat(
            problems(
                device("a").replace("\"60 ct\"", "inf")
                    + device("b").replace("\"60 ct\"", "\"1e300 EUR\"")))
        .containsExactly(
            "F:8: device 'a' field 'cost_per_gb': bad value Infinity: not a finite number;"
                + " write a price like \"60 ct\"",
            "F:16: device 'b' field 'cost_per_gb': bad value \"1e300 EUR\": too large;"
                + " a cost must be at most 1e15 ct");
  }

  @Test
  void pathThatIsADanglingSymlink() throws IOException {
    Path gone = dir.resolve("gone");
    Files.createSymbolicLink(dir.resolve("a"), gone);
    Files.createSymbolicLink(dir.resolve("b"), gone);
    String real = device("b").replace("emulate = { read = \"100 MB/s\" }\n", "");
    assertThat(problems(device("a") + real))
        .containsExactly(
            "F:3: device 'a' field 'path': bad value \""
                + dir.resolve("a")
                + "\": a dangling symlink (its target \""
                + gone
                + "\" does not exist); fix the link or remove it",
            "F:11: device 'b' field 'path': bad value \""
                + dir.resolve("b")
                + "\": a dangling symlink (its target \""
                + gone
                + "\" does not exist); fix the link or remove it");
    assertThat(gone).as("nothing is created behind the link").doesNotExist();
  }

  @Test
  void pathBelowADanglingSymlink() throws IOException {
    Path gone = dir.resolve("gone");
    Files.createSymbolicLink(dir.resolve("mnt"), gone);
    assertThat(problems(device("a").replace("path = \"a\"", "path = \"mnt/a\"")))
        .containsExactly(
            "F:3: device 'a' field 'path': bad value \""
                + dir.resolve("mnt/a")
                + "\": \""
                + dir.resolve("mnt")
                + "\" is a dangling symlink (its target \""
                + gone
                + "\" does not exist); fix the link or remove it");
  }

  @Test
  void pathWithANulCharacter() throws IOException {
    assertThat(problems(device("a").replace("path = \"a\"", "path = \"a\\u0000b\"")))
        .containsExactly(
            "F:3: device 'a' field 'path': bad value \"a\\u0000b\": not a valid path"
                + " (Nul character not allowed)");
  }

  @Test
  void catalogueEntriesGetTheSameNumberAndCodecRules() {
    assertThatThrownBy(
            () ->
                DeviceConfigParser.parseCatalog(
                    "mine.toml",
                    """
                    [[device]]
                    id = -1
                    read = "1e-300 B/s"
                    seek = "1e300 s"
                    codec = "zstd "
                    cost_per_gb = "60 €"
                    source = "made up"

                    [[device]]
                    id = "fast"
                    read = "1e400 GB/s"
                    codec = "zstd"
                    cost_per_gb = "60 ct"
                    source = "made up"
                    """))
        .isInstanceOf(DeviceConfigException.class)
        .extracting(e -> ((DeviceConfigException) e).problems())
        .asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.LIST)
        .extracting(Object::toString)
        .containsExactly(
            "mine.toml:2: field 'id': bad value -1: a numeric id must be a device number, 0 or"
                + " more; otherwise write the id as a string, like id = \"nvme\"",
            "mine.toml:3: field 'read': bad value \"1e-300 B/s\": too slow; a rate must be at"
                + " least 1 B/s",
            "mine.toml:4: field 'seek': bad value \"1e300 s\": too long; a latency must be at"
                + " most 1 hour (3600 s)",
            "mine.toml:5: field 'codec': bad value \"zstd \": trailing whitespace; allowed: none,"
                + " lz4, zstd, written exactly, without spaces or control characters",
            "mine.toml:6: field 'cost_per_gb': bad value \"60 €\": unknown currency unit '€';"
                + " allowed: ct, EUR, USD or a bare number (a relative price), e.g. \"60 ct\" or"
                + " \"0.6 EUR\"; the planner keeps costs in cents (ct), and EUR and USD count as"
                + " 100 ct each, without exchange rates",
            "mine.toml:11: device 'fast' field 'read': bad value \"1e400 GB/s\": too fast; a rate"
                + " must be at most 1 PB/s");
  }

  @Test
  void twoMetadataDevices() throws IOException {
    assertThat(problems(device("a", "metadata = true") + device("b", "metadata = true")))
        .containsExactly(
            "F:14: device 'b' field 'metadata': bad value true: device 'a' (line 5) is already the"
                + " metadata device; mark exactly one device with metadata = true");
  }

  @Test
  void unknownFieldAndBadThreads() throws IOException {
    assertThat(problems(device("a", "capcity = \"1 GB\"").replace("threads = 2", "threads = 0")))
        .containsExactly(
            "F:5: device 'a' field 'capcity': unknown field; allowed: capacity, codec, cold,"
                + " cost_per_gb, emulate, id, link, metadata, name, path, seek, storage_class,"
                + " storage_policy, threads, uri",
            "F:8: device 'a' field 'threads': bad value 0: expected a whole number of reader"
                + " threads from 1 to 1024, like 8 (1 for an HDD)");
  }

  @Test
  void collectsEveryProblemOfTheFile() throws IOException {
    List<String> all =
        problems(
            device("a", "codec = \"gzip\"")
                + device("a", "capacity = \"-1 GB\"").replace("path = \"a\"", "path = \"b\""));
    assertThat(all).hasSize(3);
    assertThat(all.get(0)).contains("field 'codec'");
    assertThat(all.get(1)).contains("duplicate id");
    assertThat(all.get(2)).contains("field 'capacity'");
  }

  @Test
  void invalidTomlAndEmptyFile() throws IOException {
    assertThat(problems("[[device]]\nid = \"a\nname = 1\n"))
        .first()
        .asString()
        .startsWith("F:2: not valid TOML: ");
    assertThat(problems("# nothing here\n"))
        .containsExactly(
            "F: no devices: add one [[device]] table per device (see docs/configuration.md)");
  }

  @Test
  void unreadableFileNamesTheFlag() {
    Path missing = dir.resolve("nope.toml");
    assertThatThrownBy(() -> DevicePool.load(missing))
        .isInstanceOf(DeviceConfigException.class)
        .hasMessageContaining(missing + ": cannot read the device configuration (")
        .hasMessageContaining("check the path of the device configuration");
  }

  @Test
  void poolKnowsItsMetadataDeviceAndRejectsUnknownIds() throws IOException {
    Path file = write(device("a") + device("b", "metadata = true"));
    DevicePool pool = DevicePool.load(file);
    assertThat(pool.metadataDevice().id()).isEqualTo("b");
    assertThat(pool.modelFile()).isEqualTo(dir.resolve("b").resolve("device-model.toml"));
    assertThatThrownBy(() -> pool.device("c"))
        .hasMessage("unknown device 'c'; " + file + " defines: a, b");
    assertThatThrownBy(() -> pool.device("a").resolve("../b/x"))
        .hasMessageStartingWith("path '../b/x' escapes device 'a'");
  }

  @Test
  void poolDevicesMayShareALink() throws IOException {
    Path file =
        write(
            "[[link]]\nid = \"ebs\"\nread = \"1.25 GB/s\"\n\n"
                + device("gp3", "link = \"ebs\"")
                + device("io2", "link = \"ebs\"")
                + device("nvme"));
    List<DeviceSpec> specs = DeviceConfigParser.parsePool(file);
    Link ebs = new Link("ebs", Bandwidth.parse("1.25 GB/s"));
    assertThat(specs.get(0).link()).contains(ebs);
    assertThat(specs.get(1).link()).contains(ebs);
    assertThat(specs.get(2).link()).isEmpty();
    assertThat(problems(device("a", "link = \"network\"")))
        .containsExactly(
            "F:5: device 'a' field 'link': bad value \"network\": no [[link]] has this id;"
                + " declare it, like [[link]] id = \"network\" read = \"1.5 GB/s\", or remove link");
  }
}
