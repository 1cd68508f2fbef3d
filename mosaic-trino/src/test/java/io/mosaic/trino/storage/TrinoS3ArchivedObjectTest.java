package io.mosaic.trino.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import io.mosaic.storage.MotoS3;
import io.mosaic.storage.Storage;
import io.mosaic.storage.StorageOpener;
import io.opentelemetry.api.OpenTelemetry;
import io.trino.filesystem.s3.S3FileSystemConfig;
import io.trino.filesystem.s3.S3FileSystemFactory;
import io.trino.filesystem.s3.S3FileSystemStats;
import io.trino.spi.security.ConnectorIdentity;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.StorageClass;

/**
 * A device's object that a lifecycle rule moved to an archive class, read through Trino's S3 file
 * system: the read fails naming the object, the class and the restore, as through S3A ({@code
 * S3ArchivedObjectTest} in mosaic-core), on moto's server, which refuses such GETs as AWS does.
 */
class TrinoS3ArchivedObjectTest {
  @TempDir static Path dir;
  private static MotoS3 moto;
  private static S3FileSystemFactory factory;

  @BeforeAll
  static void start() throws Exception {
    moto = MotoS3.start(dir);
    factory =
        new S3FileSystemFactory(
            OpenTelemetry.noop(),
            new S3FileSystemConfig()
                .setEndpoint(moto.endpoint().toString())
                .setRegion("us-east-1")
                .setPathStyleAccess(true)
                .setAwsAccessKey(MotoS3.ACCESS_KEY)
                .setAwsSecretKey(MotoS3.SECRET_KEY)
                .setMaxErrorRetries(1),
            new S3FileSystemStats());
  }

  @AfterAll
  static void stop() throws Exception {
    if (factory != null) {
      factory.destroy();
    }
    if (moto != null) {
      moto.close();
    }
  }

  @Test
  void aReadOfAnArchivedObjectNamesTheClassAndTheRestore() throws Exception {
    byte[] bytes = new byte[4096];
    try (S3Client s3 = moto.client()) {
      s3.createBucket(b -> b.bucket("archive"));
      s3.putObject(
          b -> b.bucket("archive").key("dev/cold.parquet").storageClass(StorageClass.GLACIER),
          RequestBody.fromBytes(bytes));
      s3.putObject(b -> b.bucket("archive").key("dev/warm.parquet"), RequestBody.fromBytes(bytes));
    }
    Storage storage =
        new TrinoStorageOpener(
                factory.create(ConnectorIdentity.ofUser("mosaic")),
                "STANDARD",
                moto.endpoint().toString(),
                StorageOpener.hadoop(new Configuration()))
            .open(URI.create("s3://archive/dev"), Optional.empty());
    try (Storage.ReadFile warm = storage.open("warm.parquet", bytes.length)) {
      assertThat(warm.read(ByteBuffer.allocate(100), 0)).isPositive();
    }
    assertRefused(
        () -> {
          try (Storage.ReadFile cold = storage.open("cold.parquet")) {
            cold.read(ByteBuffer.allocate(100), 0);
          }
        });
    assertRefused(
        () -> {
          try (Storage.ReadFile cold = storage.open("cold.parquet", bytes.length)) {
            cold.read(ByteBuffer.allocate(100), 0);
          }
        });
    assertRefused(() -> storage.readIfExists("cold.parquet", bytes.length));
  }

  private static void assertRefused(ThrowingCallable read) {
    assertThatThrownBy(read)
        .isInstanceOfSatisfying(
            MosaicException.class, e -> assertThat(e.kind()).isEqualTo(MosaicException.Kind.IO))
        .hasMessageContaining("s3://archive/dev/cold.parquet")
        .hasMessageContaining("archive storage class")
        .hasMessageContaining("restore")
        .hasMessageContaining("GLACIER_IR");
  }
}
