package io.mosaic.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which backend a URI opens, and the errors of URIs that open none (no cluster needed). */
class StoragesTest {
  @TempDir Path dir;

  @Test
  void fileUrisAndPlainPathsAreLocal() throws IOException {
    try (Storage s = Storages.open(dir.toUri())) {
      assertThat(s).isInstanceOf(LocalStorage.class);
      assertThat(((LocalStorage) s).path("")).isEqualTo(dir.toAbsolutePath());
    }
    try (Storage s = Storages.open(URI.create(dir.toString()))) {
      assertThat(((LocalStorage) s).path("")).isEqualTo(dir.toAbsolutePath());
    }
  }

  @Test
  void badUrisAreNamedWithTheFix() {
    for (String uri : List.of("file://host/x", "hdfs:///mosaic", "hdfs://nn:8020")) {
      assertThatThrownBy(() -> Storages.open(URI.create(uri)))
          .as(uri)
          .isInstanceOfSatisfying(
              MosaicException.class,
              e -> assertThat(e.kind()).isEqualTo(MosaicException.Kind.INVALID_ARGUMENT))
          .hasMessageContaining(uri);
    }
    assertThatThrownBy(() -> Storages.open(URI.create("nosuchfs://nn:8020/mosaic")))
        .isInstanceOf(MosaicException.class)
        .hasMessageContaining("nosuchfs://nn:8020/mosaic")
        .hasMessageContaining("scheme 'nosuchfs'");
  }

  @Test
  void anUnreachableNameNodeFailsFastNamingTheUri() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    URI uri = URI.create("hdfs://127.0.0.1:" + port + "/mosaic/fast");
    long start = System.nanoTime();
    assertThatThrownBy(() -> Storages.open(uri))
        .isInstanceOfSatisfying(
            MosaicException.class, e -> assertThat(e.kind()).isEqualTo(MosaicException.Kind.IO))
        .hasMessageContaining(uri.toString())
        .hasMessageContaining("unreachable")
        .hasMessageContaining("NameNode");
    assertThat((System.nanoTime() - start) / 1e9).as("seconds to fail").isLessThan(10);
  }

  @Test
  void anUnknownNameNodeHostIsNamed() {
    URI uri = URI.create("hdfs://no-such-namenode.invalid:8020/mosaic");
    assertThatThrownBy(() -> Storages.open(uri))
        .isInstanceOfSatisfying(
            MosaicException.class, e -> assertThat(e.kind()).isEqualTo(MosaicException.Kind.IO))
        .hasMessageContaining("no-such-namenode.invalid:8020")
        .hasMessageContaining("unreachable");
  }

  @Test
  void connectionDefaultsApplyOnlyWhereTheCallerSetNone() {
    Configuration conf = new Configuration();
    conf.set("ipc.client.connect.timeout", "12345");
    Configuration applied = Storages.withConnectDefaults(conf);
    assertThat(applied.get("ipc.client.connect.timeout")).isEqualTo("12345");
    assertThat(applied.get("ipc.client.connect.max.retries")).isEqualTo("1");
    assertThat(conf.get("ipc.client.connect.max.retries"))
        .as("the caller's is untouched")
        .isEqualTo("10");
  }
}
