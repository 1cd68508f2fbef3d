package io.mosaic.storage;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.StorageClass;

/**
 * moto's S3 server on loopback, for what SeaweedFS does not do as AWS does: objects in an archive
 * storage class (GLACIER, DEEP_ARCHIVE) whose GET is refused until they are restored. Installed
 * with {@code python3 -m pip install --user "moto[server]"} when missing, started on a free port
 * and stopped by its PID. Not the tests' main S3 server ({@link SeaweedS3}).
 */
public final class MotoS3 implements AutoCloseable {
  public static final String ACCESS_KEY = "moto-access";
  public static final String SECRET_KEY = "moto-secret";

  private final Process process;
  private final int port;

  private MotoS3(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /** Starts a server, installing moto first when this machine has none. */
  public static MotoS3 start(Path dir) throws Exception {
    String server = installed();
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Path log = dir.resolve("moto.log");
    Process p =
        new ProcessBuilder(server, "-H", "127.0.0.1", "-p", Integer.toString(port))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    MotoS3 moto = new MotoS3(p, port);
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      try {
        HttpURLConnection c =
            (HttpURLConnection) moto.endpoint().resolve("/").toURL().openConnection();
        c.setConnectTimeout(1000);
        if (c.getResponseCode() == 200) {
          return moto;
        }
      } catch (IOException e) {
        // not listening yet
      }
      if (!p.isAlive() || System.nanoTime() > deadline) {
        moto.close();
        throw new IllegalStateException(
            "moto's S3 server did not start on port " + port + ": " + Files.readString(log));
      }
      Thread.sleep(200);
    }
  }

  /** moto_server's path, after installing moto with pip when it is not on the PATH. */
  private static String installed() throws Exception {
    Path local = Path.of(System.getProperty("user.home"), ".local/bin/moto_server");
    if (Files.isExecutable(local)) {
      return local.toString();
    }
    if (new ProcessBuilder("sh", "-c", "command -v moto_server").start().waitFor() == 0) {
      return "moto_server";
    }
    Process pip =
        new ProcessBuilder("python3", "-m", "pip", "install", "--user", "-q", "moto[server]")
            .inheritIO()
            .start();
    if (!pip.waitFor(10, TimeUnit.MINUTES) || pip.exitValue() != 0) {
      throw new IllegalStateException("pip could not install moto[server]");
    }
    return local.toString();
  }

  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + port);
  }

  /** S3A's settings for this server. */
  Configuration conf() {
    Configuration conf = new Configuration();
    SeaweedS3.loopbackSettings(endpoint(), ACCESS_KEY, SECRET_KEY).forEach(conf::set);
    conf.set("fs.s3a.attempts.maximum", "1");
    conf.set("fs.s3a.retry.limit", "1");
    return conf;
  }

  /** An AWS SDK client of this server, to set objects up as a lifecycle rule would leave them. */
  public S3Client client() {
    return SeaweedS3.Sdk.client(endpoint(), ACCESS_KEY, SECRET_KEY);
  }

  /**
   * Creates {@code bucket} with two objects of 4,096 bytes under {@code prefix}: {@code
   * cold.parquet} in GLACIER, as a lifecycle rule leaves it, and {@code warm.parquet} in STANDARD.
   *
   * @return the objects' bytes
   */
  public byte[] archivedAndWarm(String bucket, String prefix) {
    byte[] bytes = new byte[4096];
    try (S3Client s3 = client()) {
      s3.createBucket(b -> b.bucket(bucket));
      s3.putObject(
          b -> b.bucket(bucket).key(prefix + "/cold.parquet").storageClass(StorageClass.GLACIER),
          RequestBody.fromBytes(bytes));
      s3.putObject(
          b -> b.bucket(bucket).key(prefix + "/warm.parquet"), RequestBody.fromBytes(bytes));
    }
    return bytes;
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }
}
