package io.mosaic.storage;

import io.mosaic.MosaicException;
import java.io.IOException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.UnsupportedFileSystemException;

/** Opens the {@link Storage} of a root URI (docs/format.md, "Storage backends"). */
public final class Storages {
  /**
   * Connection settings for when the caller set none: Hadoop's defaults retry an unreachable
   * NameNode for about 10 s on a refused connection and 15 min on timeouts, which looks like a
   * hang. They also map {@code s3://} to S3A (docs/distributed-storage.md, "Devices on S3").
   */
  static final Map<String, String> CONNECT_DEFAULTS =
      Map.of(
          "ipc.client.connect.max.retries", "1",
          "ipc.client.connect.max.retries.on.timeouts", "1",
          "ipc.client.connect.timeout", "3000",
          // S3A's defaults retry a refused or silent endpoint for minutes (7 retries of S3A, each
          // of up to 5 SDK attempts); a wrong endpoint or a stopped server should fail in seconds.
          "fs.s3a.attempts.maximum", "3",
          "fs.s3a.retry.limit", "2",
          "fs.s3a.retry.interval", "250ms",
          // The least S3A accepts (it raises a lower one to it, with a warning).
          "fs.s3a.connection.establish.timeout", "15s",
          // Mosaic reads ranges it planned from the manifest. S3A 3.5's analytics stream
          // prefetches at open, and a failed prefetch closes the stream: the read then fails with
          // "Stream is closed!", hiding S3's error (a replaced object, an archived one).
          "fs.s3a.input.stream.type", "classic",
          // s3:// is S3A unless the caller maps it to another file system.
          "fs.s3.impl", "org.apache.hadoop.fs.s3a.S3AFileSystem");

  private Storages() {}

  // Storages opened by shared(), per configuration (by identity) and root URI.
  private static final Map<Configuration, Map<URI, Storage>> SHARED =
      java.util.Collections.synchronizedMap(new java.util.IdentityHashMap<>());
  private static final Configuration DEFAULT_CONF = new Configuration();

  /**
   * The storage of {@code uri}, opened once per JVM and configuration ({@code null} for Hadoop's
   * defaults) and never closed, as Hadoop's own {@code FileSystem} cache does: for callers that
   * reach one location again and again, such as a table opened by every scan task.
   */
  public static Storage shared(URI uri, Configuration conf) throws IOException {
    Map<URI, Storage> byUri =
        SHARED.computeIfAbsent(
            conf == null ? DEFAULT_CONF : conf,
            c -> new java.util.concurrent.ConcurrentHashMap<>());
    Storage storage = byUri.get(uri);
    if (storage == null) {
      Storage opened = open(uri, conf == null ? DEFAULT_CONF : conf);
      storage = byUri.putIfAbsent(uri, opened);
      if (storage == null) {
        storage = opened;
      } else {
        opened.close(); // another thread opened it first
      }
    }
    return storage;
  }

  /** {@link #open(URI, Configuration)} with Hadoop's configuration files on the class path. */
  public static Storage open(URI uri) throws IOException {
    return open(uri, new Configuration());
  }

  /**
   * A local directory for {@code file:} URIs and plain paths, the embedded default; a {@link
   * HadoopStorage} for any other scheme ({@code hdfs://nn:8020/mosaic/fast}). Fails with a {@link
   * MosaicException} naming the URI when it is malformed, its scheme has no file system, or the
   * file system does not answer.
   */
  public static Storage open(URI uri, Configuration conf) throws IOException {
    String scheme = uri.getScheme();
    if (scheme == null || scheme.equals("file")) {
      if (uri.getPath() == null
          || uri.getPath().isEmpty()
          || (scheme != null && uri.getAuthority() != null)) {
        throw MosaicException.invalid(
            "storage URI '" + uri + "' is not a local folder; write file:/abs/path or a path");
      }
      return new LocalStorage(Path.of(uri.getPath()));
    }
    if (uri.getAuthority() == null || uri.getPath() == null || !uri.getPath().startsWith("/")) {
      throw MosaicException.invalid(
          "storage URI '"
              + uri
              + "' names no host or no absolute folder; write "
              + scheme
              + "://host:port/folder, e.g. hdfs://namenode:8020/mosaic/fast or"
              + " s3://bucket/mosaic/fast");
    }
    String path = uri.getPath().endsWith("/") ? uri.getPath() : uri.getPath() + "/";
    URI root = URI.create(scheme + "://" + uri.getRawAuthority() + path);
    try {
      return new HadoopStorage(root, withConnectDefaults(conf));
    } catch (UnsupportedFileSystemException e) {
      throw noFileSystem(uri, scheme, e);
    } catch (IllegalArgumentException e) {
      // Hadoop reports an unknown NameNode host as an IllegalArgumentException around it.
      if (e.getCause() instanceof UnknownHostException) {
        throw HadoopStorage.unreachable(root, e);
      }
      throw new MosaicException(
          MosaicException.Kind.INVALID_ARGUMENT,
          "storage URI '" + uri + "' is not one Hadoop accepts (" + e.getMessage() + ")",
          e);
    } catch (RuntimeException e) {
      // fs.<scheme>.impl names a class that is not on the class path (s3:// without hadoop-aws).
      if (e.getCause() instanceof ClassNotFoundException) {
        throw noFileSystem(uri, scheme, e);
      }
      throw e;
    }
  }

  private static MosaicException noFileSystem(URI uri, String scheme, Exception e) {
    return new MosaicException(
        MosaicException.Kind.INVALID_ARGUMENT,
        "storage URI '"
            + uri
            + "' has scheme '"
            + scheme
            + "', which no Hadoop file system on the class path serves; use hdfs://, s3:// or"
            + " file:, or add the scheme's Hadoop module (s3:// and s3a:// need hadoop-aws)",
        e);
  }

  /** A copy of {@code conf} with {@link #CONNECT_DEFAULTS} where only Hadoop's defaults were. */
  static Configuration withConnectDefaults(Configuration conf) {
    Configuration copy = new Configuration(conf);
    CONNECT_DEFAULTS.forEach(
        (key, value) -> {
          String[] sources = conf.getPropertySources(key);
          if (sources == null || Arrays.stream(sources).allMatch(s -> s.endsWith("-default.xml"))) {
            copy.set(key, value);
          }
        });
    return copy;
  }
}
