package io.mosaic.table;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;

/** Starts a main class of the test class path in a new JVM, as the crash and race tests do. */
public final class ChildJvm {
  private ChildJvm() {}

  public static List<String> command(List<String> jvmOptions, Class<?> main, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx256m");
    command.add("-XX:+IgnoreUnrecognizedVMOptions");
    command.add("--add-opens=java.base/java.nio=ALL-UNNAMED");
    command.add("--enable-native-access=ALL-UNNAMED");
    command.add("--sun-misc-unsafe-memory-access=allow");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-XX:+UseSerialGC");
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    command.addAll(args);
    return command;
  }

  public static Process start(Class<?> main, List<String> args) throws IOException {
    return new ProcessBuilder(command(List.of(), main, args)).redirectErrorStream(true).start();
  }

  /**
   * The JVM option that hands a child the Hadoop settings {@code conf} (a MiniHdfs's or a
   * SeaweedS3's client settings), written to {@code dir/hdfs-site.xml}; the child reads them with
   * {@link #hadoopConf}. The file may hold S3 credentials, as the parent's own configuration does:
   * it is created readable by its owner only, and only its path goes on the command line.
   */
  public static String hadoopConfOption(Configuration conf, Path dir) throws IOException {
    Path file = dir.resolve("hdfs-site.xml");
    Files.deleteIfExists(file);
    if (file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      Files.createFile(
          file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    }
    try (OutputStream out = Files.newOutputStream(file)) {
      conf.writeXml(out);
    }
    return "-D" + HADOOP_CONF + "=" + file;
  }

  /** The Hadoop settings the parent named in {@code -Dmosaic.hadoop.conf}; null without it. */
  public static Configuration hadoopConf() {
    String file = System.getProperty(HADOOP_CONF);
    if (file == null) {
      return null;
    }
    Configuration conf = new Configuration();
    conf.addResource(new org.apache.hadoop.fs.Path(Path.of(file).toUri()));
    return conf;
  }

  private static final String HADOOP_CONF = "mosaic.hadoop.conf";
}
