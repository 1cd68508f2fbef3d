package io.mosaic.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.device.DevicePool;
import io.mosaic.spark.shaded.ShadedJarMain;
import io.mosaic.table.MosaicTable;
import java.io.File;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shaded jar works where a Spark user puts it (spark-submit's option jars): a separate JVM with
 * Spark's class path and the shaded jar, and no Mosaic module class, writes, appends to and reads a
 * Mosaic table and uses Spark's own Parquet beside Mosaic's relocated copy. Run by failsafe after
 * {@code package}.
 */
class ShadedJarIT {
  @TempDir Path dir;

  @Test
  void aSparkJobWithOnlyTheShadedJarWritesAndReadsAMosaicTable()
      throws IOException, InterruptedException {
    Path jar = Path.of(System.getProperty("mosaic.shaded.jar"));
    assertThat(jar).exists();
    try (JarFile j = new JarFile(jar.toFile())) {
      List<String> names = j.stream().map(ZipEntry::getName).toList();
      assertThat(names)
          .contains(
              "io/mosaic/spark/MosaicDataSource.class",
              "io/mosaic/table/MosaicTable.class",
              "io/mosaic/shaded/org/apache/parquet/hadoop/ParquetFileReader.class",
              "io/mosaic/shaded/com/fasterxml/jackson/databind/ObjectMapper.class",
              "io/mosaic/shaded/org/tomlj/Toml.class",
              "io/mosaic/placement/InstalledPlan.class",
              "io/mosaic/shaded/com/google/protobuf/Message.class",
              "com/google/ortools/Loader.class");
      assertThat(names)
          .noneMatch(
              n ->
                  n.startsWith("org/apache/parquet/")
                      || n.startsWith("com/fasterxml/")
                      || n.startsWith("shaded/parquet/")
                      || n.startsWith("org/apache/arrow/")
                      || n.startsWith("org/apache/spark/")
                      || n.startsWith("scala/")
                      || n.startsWith("com/github/luben/")
                      || n.startsWith("com/google/protobuf/")
                      || n.startsWith("com/sun/jna/")
                      || n.startsWith("picocli/")
                      || n.startsWith("io/mosaic/cli/")
                      || n.startsWith("org/drools/"));
      String services =
          new String(
              j.getInputStream(
                      j.getEntry(
                          "META-INF/services/org.apache.spark.sql.sources.DataSourceRegister"))
                  .readAllBytes(),
              StandardCharsets.UTF_8);
      assertThat(services).contains("io.mosaic.spark.MosaicDataSource");
    }

    // Spark's class path: nothing of Mosaic's on it.
    String sparkClassPath =
        Files.readString(Path.of(System.getProperty("mosaic.spark.class.path"))).strip();
    assertThat(sparkClassPath.split(File.pathSeparator))
        .isNotEmpty()
        .noneMatch(e -> e.contains("mosaic-core") || e.contains("tomlj") || e.endsWith("classes"));
    // The job's own class, alone in a directory (as a user's job jar would hold it).
    Path jobClasses = dir.resolve("job");
    String classFile = ShadedJarMain.class.getName().replace('.', '/') + ".class";
    Files.createDirectories(jobClasses.resolve(classFile).getParent());
    try (var in = ShadedJarMain.class.getClassLoader().getResourceAsStream(classFile)) {
      Files.copy(in, jobClasses.resolve(classFile));
    }

    Path devices = SparkTestTables.devices(dir);
    Path table = dir.resolve("pool/nvme/numbers");
    SparkTestTables.deviceModel(DevicePool.load(devices));
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx768m");
    command.addAll(Arrays.asList(System.getProperty("mosaic.child.jvm.flags").split("\\s+")));
    command.add("-cp");
    command.add(sparkClassPath + File.pathSeparator + jar + File.pathSeparator + jobClasses);
    command.add(ShadedJarMain.class.getName());
    command.add(devices.toString());
    command.add(table.toString());
    command.add(dir.resolve("spark-parquet").toString());
    command.add(dir.resolve("warehouse").toString());
    Path log = dir.resolve("child.log");
    Process child =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    boolean finished = child.waitFor(5, TimeUnit.MINUTES);
    if (!finished) {
      child.destroyForcibly();
    }
    String output = Files.readString(log);
    assertThat(finished).as("the child JVM finished; output:%n%s", output).isTrue();
    assertThat(child.exitValue()).as("exit status; output:%n%s", output).isZero();

    Map<String, String> out = new HashMap<>();
    for (String line : output.split("\n")) {
      int eq = line.indexOf('=');
      if (eq > 0 && line.substring(0, eq).matches("[A-Z_]+")) {
        out.put(line.substring(0, eq), line.substring(eq + 1).strip());
      }
    }
    long sumId = 0;
    for (long id = 5000; id < 20_000; id++) {
      sumId += id;
    }
    assertThat(out).containsEntry("MOSAIC_COUNT", "15000");
    assertThat(out).containsEntry("MOSAIC_SUM_ID", String.valueOf(sumId));
    assertThat(new BigDecimal(out.get("MOSAIC_SUM_PRICE")))
        .isEqualByComparingTo(BigDecimal.valueOf(sumId));
    assertThat(out).containsEntry("MOSAIC_BUCKETS", "7");
    assertThat(out).containsEntry("SPARK_PARQUET_SUM", String.valueOf(999L * 1000 / 2));
    // Each library from where it should come.
    assertThat(out.get("SOURCE_FROM")).isEqualTo(jar.getFileName().toString());
    assertThat(out.get("MOSAIC_PARQUET_FROM")).isEqualTo(jar.getFileName().toString());
    assertThat(out.get("SPARK_PARQUET_FROM")).startsWith("parquet-hadoop-");
    assertThat(out.get("ARROW_FROM")).startsWith("arrow-vector-");
    // CALL place ran LOPT (OR-Tools' natives loaded from the shaded jar) and applied its plan.
    assertThat(out.get("ORTOOLS_FROM")).isEqualTo(jar.getFileName().toString());
    assertThat(out.get("PLACE_STRATEGY_ROWS")).isEqualTo("2");
    assertThat(out.get("PLACED")).isNotEmpty().isEqualTo(out.get("PLANNED"));

    // The table the shaded build wrote is an ordinary Mosaic table.
    MosaicTable written = MosaicTable.open(table, DevicePool.load(devices));
    assertThat(written.latest().rowCount()).isEqualTo(20_000);
  }
}
