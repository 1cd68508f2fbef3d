package io.mosaic.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.storage.SeaweedS3;
import java.io.File;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.GlobalStorageStatistics;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.StorageStatistics;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Executors in separate JVMs ({@code local-cluster[2,1,1024]}) on a pool whose devices are two
 * prefixes of an S3 bucket, one in class STANDARD_IA, on a real S3 server (SeaweedFS, {@link
 * SeaweedS3}), with the tables' metadata on S3 too: the TPC-H queries ({@link ClusterTpch#queries})
 * answer what they answer on local files ({@link ClusterTpch}, as in {@link HdfsLocalClusterIT}),
 * and the executors read the rows from S3, through S3A.
 *
 * <p>As a Spark user does (docs/spark.md, "Devices on S3"), the executors get hadoop-aws and the
 * AWS SDK modules with {@code spark.jars}, which is where spark-submit's {@code --packages} puts
 * them, and not on their class path; the driver has them on its own, as spark-submit's driver does.
 * The S3A settings (endpoint, path-style addresses, credentials) are {@code spark.hadoop.fs.s3a.*}
 * settings, never in devices.toml. SF 0.01 for CI; {@code -Dmosaic.tpch.s3.scale=0.1} for SF 0.1.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class S3LocalClusterIT {
  @RegisterExtension static final SeaweedS3 S3 = SeaweedS3.shared();

  private static final double SCALE =
      Double.parseDouble(System.getProperty("mosaic.tpch.s3.scale", "0.01"));

  /** The folder of the bucket this class writes under: the devices and the tables' metadata. */
  private static final String FOLDER = "spark-cluster";

  private static final String S3A_FILE_SYSTEM = "org.apache.hadoop.fs.s3a.S3AFileSystem";

  @TempDir static Path dir;
  private SparkSession spark;
  private final long started = System.nanoTime();

  /** Where a table lives, its metadata on S3 where every executor reaches it. */
  private static String table(String name) {
    return "s3://" + SeaweedS3.BUCKET + "/" + FOLDER + "/tables/" + name;
  }

  /** Devices "hot" (STANDARD) and "warm" (STANDARD_IA), two prefixes of the bucket. */
  private static Path writePool() throws Exception {
    Files.createDirectories(dir.resolve("pool/nvme"));
    String s3 =
        """

        [[device]]
        id = "hot"
        uri = "s3://%1$s/%2$s/hot"
        capacity = "4 GB"
        threads = 4
        codec = "lz4"
        cost_per_gb = "2.3 ct"

        [[device]]
        id = "warm"
        uri = "s3://%1$s/%2$s/warm"
        storage_class = "STANDARD_IA"
        capacity = "8 GB"
        threads = 4
        codec = "zstd"
        cost_per_gb = "1.25 ct"
        """
            .formatted(SeaweedS3.BUCKET, FOLDER);
    return Files.writeString(dir.resolve("devices.toml"), SparkTestTables.NVME + s3);
  }

  /** lineitem and orders, most of the bytes, in the infrequent-access class; the rest hot. */
  private static String tpchDevice(String table) {
    return switch (table) {
      case "lineitem", "orders" -> "warm";
      default -> "hot";
    };
  }

  /** Whether a class path entry is hadoop-aws or one of the jars it needs that Spark lacks. */
  private static boolean s3aJar(String entry) {
    String e = entry.replace(File.separatorChar, '/');
    return e.contains("/org/apache/hadoop/hadoop-aws/")
        || e.contains("/software/amazon/")
        || e.contains("/org/wildfly/openssl/")
        || e.contains("/org/reactivestreams/");
  }

  @BeforeAll
  void start() throws Exception {
    Path devices = writePool();
    List<String> classPath =
        Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
    List<String> s3aJars = classPath.stream().filter(S3LocalClusterIT::s3aJar).toList();
    assertThat(s3aJars).anyMatch(j -> j.contains("hadoop-aws"));
    String executorClassPath =
        classPath.stream()
            .filter(e -> !s3aJar(e) && !e.contains("surefire") && !e.contains("failsafe"))
            .collect(Collectors.joining(File.pathSeparator));
    SparkSession.Builder builder =
        LocalClusterIT.localCluster("mosaic-s3-local-cluster", devices)
            .config("spark.executor.memory", "1g")
            // The executors' class path without S3A; S3A comes as a user's application jars do.
            .config("spark.executor.extraClassPath", executorClassPath)
            .config("spark.jars", String.join(",", s3aJars));
    // Endpoint, path-style addresses, credentials, short retries: Hadoop settings, as a user sets
    // them with --conf spark.hadoop.fs.s3a.*=...
    S3.settings().forEach((k, v) -> builder.config("spark.hadoop." + k, v));
    spark = builder.getOrCreate();
    System.out.printf(
        Locale.ROOT,
        "SeaweedFS up in %.1f s, Spark with 2 executors in %.1f s%n",
        S3.startTime().toMillis() / 1e3,
        (System.nanoTime() - started) / 1e9);
  }

  @AfterAll
  void stop() {
    if (spark != null) {
      spark.stop();
    }
    System.out.printf(
        Locale.ROOT, "S3LocalClusterIT: %.1f s%n", (System.nanoTime() - started) / 1e9);
  }

  @Test
  void executorsLoadS3aFromTheApplicationsJars() {
    LocalClusterIT.assertTwoExecutorJvms(spark);
    List<String> loaders =
        spark
            .range(0, 8, 1, 8)
            .mapPartitions(
                (MapPartitionsFunction<Long, String>)
                    rows -> {
                      ClassLoader task = Thread.currentThread().getContextClassLoader();
                      ClassLoader s3a =
                          Class.forName(S3A_FILE_SYSTEM, false, task).getClassLoader();
                      boolean onClassPath;
                      try {
                        Class.forName(S3A_FILE_SYSTEM, false, ClassLoader.getSystemClassLoader());
                        onClassPath = true;
                      } catch (ClassNotFoundException e) {
                        onClassPath = false;
                      }
                      return List.of(
                              (s3a == ClassLoader.getSystemClassLoader() ? "class path" : "jars")
                                  + ", on the class path: "
                                  + onClassPath)
                          .iterator();
                    },
                Encoders.STRING())
            .distinct()
            .collectAsList();
    assertThat(loaders).containsExactly("jars, on the class path: false");
  }

  @Test
  void tpchQueriesOnS3AnswerAsOnLocalFiles() throws Exception {
    ClusterTpch tpch = new ClusterTpch(spark, SCALE, "s3", S3LocalClusterIT::table);
    tpch.load(S3LocalClusterIT::tpchDevice);
    Map<Long, long[]> before = executorS3Reads(spark);
    tpch.assertAnswersAsOnLocalFiles();
    Map<Long, long[]> after = executorS3Reads(spark);

    Map<String, String> classes = new TreeMap<>();
    Map<String, long[]> objects = objectsUnder(classes, "hot", "warm");
    Map<Long, long[]> read = new TreeMap<>();
    after.forEach(
        (pid, n) -> {
          long[] was = before.getOrDefault(pid, new long[2]);
          read.put(pid, new long[] {n[0] - was[0], n[1] - was[1]});
        });
    System.out.printf(
        Locale.ROOT,
        "S3 objects (count, bytes): %s; read by the executors during the queries (bytes, read"
            + " operations) per executor: %s%n",
        objects.entrySet().stream()
            .map(e -> e.getKey() + "=" + Arrays.toString(e.getValue()))
            .toList(),
        read.entrySet().stream()
            .map(e -> e.getKey() + "=" + Arrays.toString(e.getValue()))
            .toList());
    // Segments under both prefixes: the queries read both devices, STANDARD and STANDARD_IA.
    assertThat(objects.get("hot")[0]).as("objects under hot/").isPositive();
    assertThat(objects.get("warm")[0]).as("objects under warm/").isPositive();
    assertThat(classes).containsEntry("hot", "STANDARD").containsEntry("warm", "STANDARD_IA");
    // The rows came from S3 through each executor's S3A, not from a local copy or cache.
    assertThat(read).as("executors that read from S3").hasSize(2);
    assertThat(read.values()).allSatisfy(n -> assertThat(n[0]).isPositive());
  }

  /**
   * Bytes and read operations of S3A so far in each executor JVM, by process id: Hadoop's
   * statistics of the s3 and s3a schemes, summed over every S3A file system the JVM opened.
   */
  private static Map<Long, long[]> executorS3Reads(SparkSession spark) {
    List<String> rows =
        spark
            .range(0, 16, 1, 16)
            .mapPartitions(
                (MapPartitionsFunction<Long, String>)
                    ignored -> {
                      long bytes = 0;
                      long ops = 0;
                      Iterator<StorageStatistics> all = GlobalStorageStatistics.INSTANCE.iterator();
                      while (all.hasNext()) {
                        StorageStatistics s = all.next();
                        if ("s3".equals(s.getScheme()) || "s3a".equals(s.getScheme())) {
                          Long b = s.getLong("bytesRead");
                          Long o = s.getLong("readOps");
                          bytes += b == null ? 0 : b;
                          ops += o == null ? 0 : o;
                        }
                      }
                      return List.of(ProcessHandle.current().pid() + " " + bytes + " " + ops)
                          .iterator();
                    },
                Encoders.STRING())
            .distinct()
            .collectAsList();
    Map<Long, long[]> reads = new TreeMap<>();
    for (String row : rows) {
      String[] f = row.split(" ");
      // Tasks of one JVM may see counts a moment apart: keep the largest.
      reads.merge(
          Long.parseLong(f[0]),
          new long[] {Long.parseLong(f[1]), Long.parseLong(f[2])},
          (a, b) -> a[0] >= b[0] ? a : b);
    }
    return reads;
  }

  /** Objects (count, bytes) under each of the class's prefixes, listed through S3A. */
  private static Map<String, long[]> objectsUnder(Map<String, String> classes, String... prefixes)
      throws Exception {
    Map<String, long[]> objects = new TreeMap<>();
    try (FileSystem fs =
        FileSystem.newInstance(URI.create("s3a://" + SeaweedS3.BUCKET + "/"), S3.conf())) {
      for (String prefix : prefixes) {
        long[] n = new long[2];
        RemoteIterator<LocatedFileStatus> files =
            fs.listFiles(new org.apache.hadoop.fs.Path("/" + FOLDER + "/" + prefix), true);
        while (files.hasNext()) {
          LocatedFileStatus f = files.next();
          if (n[0] == 0) {
            // S3A shows a class other than STANDARD as the object's header.
            byte[] c = fs.getXAttrs(f.getPath()).get("header.x-amz-storage-class");
            classes.put(prefix, c == null ? "STANDARD" : new String(c, StandardCharsets.UTF_8));
          }
          n[0]++;
          n[1] += f.getLen();
        }
        objects.put(prefix, n);
      }
    }
    return objects;
  }
}
