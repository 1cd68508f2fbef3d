package io.mosaic.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.StorageClass;

/**
 * A device's object that a lifecycle rule moved to an archive class (GLACIER, DEEP_ARCHIVE), which
 * S3 refuses to GET until it is restored: the read fails with an error naming the object, the class
 * and the fixes, not as denied credentials. On moto's server ({@link MotoS3}), which refuses such
 * reads as AWS does; devices.toml already refuses these classes for a device.
 */
class S3ArchivedObjectTest {
  @TempDir static Path dir;
  private static MotoS3 moto;

  @BeforeAll
  static void start() throws Exception {
    moto = MotoS3.start(dir);
  }

  @AfterAll
  static void stop() throws Exception {
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
    Storage storage = Storages.open(URI.create("s3a://archive/dev"), moto.conf());
    try (Storage.ReadFile warm = storage.open("warm.parquet")) {
      assertThat(warm.read(ByteBuffer.allocate(100), 0)).isPositive();
    }
    assertThatThrownBy(
            () -> {
              try (Storage.ReadFile cold = storage.open("cold.parquet")) {
                cold.read(ByteBuffer.allocate(100), 0);
              }
            })
        .isInstanceOfSatisfying(
            MosaicException.class, e -> assertThat(e.kind()).isEqualTo(MosaicException.Kind.IO))
        .hasMessageContaining("s3a://archive/dev/cold.parquet")
        .hasMessageContaining("archive storage class")
        .hasMessageContaining("restore")
        .hasMessageContaining("GLACIER_IR")
        .hasMessageNotContaining("check the credentials");
  }
}
