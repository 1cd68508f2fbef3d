package io.mosaic.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import java.net.ServerSocket;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a person sees when a device on S3 cannot be reached: a {@link MosaicException} naming the
 * URI and the fix, within seconds, with the retry limits {@link Storages} applies by default.
 */
class S3ErrorsTest {
  @RegisterExtension static final SeaweedS3 S3 = SeaweedS3.shared();

  /** The server's settings without the tests' retry limits, so Storages' defaults apply. */
  private static Configuration defaults() {
    // A fresh configuration, not unset keys: Hadoop remembers who set a key after its unset.
    Configuration conf = new Configuration();
    S3.settings()
        .forEach(
            (key, value) -> {
              if (!key.contains("retry") && !key.contains("attempts") && !key.contains("timeout")) {
                conf.set(key, value);
              }
            });
    return conf;
  }

  @Test
  void aClosedEndpointFailsFastNamingTheUriAndTheSetting() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Configuration conf = defaults();
    conf.set("fs.s3a.endpoint", "http://127.0.0.1:" + port);
    URI uri = URI.create("s3://" + SeaweedS3.BUCKET + "/closed");
    long start = System.nanoTime();
    assertThatThrownBy(() -> Storages.open(uri, conf))
        .isInstanceOfSatisfying(
            MosaicException.class, e -> assertThat(e.kind()).isEqualTo(MosaicException.Kind.IO))
        .hasMessageContaining("s3://mosaic/closed/")
        .hasMessageContaining("is unreachable")
        .hasMessageContaining("http://127.0.0.1:" + port)
        .hasMessageContaining("check fs.s3a.endpoint");
    long millis = (System.nanoTime() - start) / 1_000_000;
    System.err.println("a closed S3 endpoint failed after " + millis + " ms");
    assertThat(millis).isLessThan(15_000);
  }

  @Test
  void aMissingBucketIsNamed() {
    URI uri = URI.create("s3://no-such-bucket/mosaic/fast");
    assertThatThrownBy(() -> Storages.open(uri, defaults()))
        .isInstanceOfSatisfying(
            MosaicException.class,
            e -> assertThat(e.kind()).isEqualTo(MosaicException.Kind.NOT_FOUND))
        .hasMessageContaining("bucket 'no-such-bucket'")
        .hasMessageContaining("s3://no-such-bucket/mosaic/fast/")
        .hasMessageContaining(S3.endpoint().toString())
        .hasMessageContaining("create the bucket");
  }

  @Test
  void deniedCredentialsAreNamedWithWhereToSetThem() {
    Configuration conf = defaults();
    conf.set("fs.s3a.secret.key", "not-the-secret");
    URI uri = URI.create("s3a://" + SeaweedS3.BUCKET + "/denied");
    long start = System.nanoTime();
    assertThatThrownBy(() -> Storages.open(uri, conf))
        .isInstanceOfSatisfying(
            MosaicException.class, e -> assertThat(e.kind()).isEqualTo(MosaicException.Kind.IO))
        .hasMessageContaining("S3 refused access to s3a://mosaic/denied/")
        .hasMessageContaining("AWS_ACCESS_KEY_ID")
        .hasMessageContaining("fs.s3a.secret.key")
        .hasMessageContaining("never in Mosaic's files");
    assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(15_000);
  }

  @Test
  void s3IsS3aUnlessTheCallerMapsIt() throws Exception {
    try (Storage s = Storages.open(URI.create("s3://" + SeaweedS3.BUCKET + "/plain"), S3.conf())) {
      s.createExclusive("v/1", new byte[] {1});
      assertThat(s.capabilities().exclusiveCreate()).isTrue();
      assertThat(((HadoopStorage) s).fileSystem().getClass().getSimpleName())
          .isEqualTo("S3AFileSystem");
    }
    try (Storage s = Storages.open(URI.create("s3a://" + SeaweedS3.BUCKET + "/plain"), S3.conf())) {
      assertThat(s.isFile("v/1")).as("the same object through s3a://").isTrue();
    }
  }
}
