package io.mosaic.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.apache.hadoop.fs.s3a.AWSBadRequestException;
import org.apache.hadoop.fs.s3a.RemoteFileChangedException;
import org.apache.hadoop.fs.s3a.S3AUtils;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * How a lost conditional PUT reaches {@link HadoopStorage}: the AWS SDK's exception for each of
 * AWS's answers, passed through S3A's own translation ({@link S3AUtils#translateException}), is
 * what S3A throws from a create. SeaweedFS answers a lost race with 412 (S3StorageContractTest
 * races real creates); AWS also answers 409 ConditionalRequestConflict when two conditional writes
 * of a key are in flight, which no server here sends, so it is checked on the translation itself.
 */
class ConditionalWriteConflictTest {
  private static IOException translated(int status, String code) {
    S3Exception aws =
        (S3Exception)
            S3Exception.builder()
                .statusCode(status)
                .message(code)
                .awsErrorDetails(
                    AwsErrorDetails.builder().errorCode(code).errorMessage(code).build())
                .build();
    return S3AUtils.translateException("PUT", "s3a://mosaic/t/_manifests/v1.json", aws);
  }

  @Test
  void awsConditionalRequestConflictIsALostRace() {
    IOException e = translated(409, "ConditionalRequestConflict");
    assertThat(e).isInstanceOf(AWSBadRequestException.class);
    assertThat(HadoopStorage.preconditionFailed(e)).isTrue();
  }

  @Test
  void preconditionFailedIsALostRace() {
    IOException e = translated(412, "PreconditionFailed");
    assertThat(e).isInstanceOf(RemoteFileChangedException.class);
    assertThat(HadoopStorage.preconditionFailed(e)).isTrue();
  }

  @Test
  void otherConflictsAndBadRequestsAreNot() {
    assertThat(HadoopStorage.preconditionFailed(translated(409, "BucketAlreadyExists"))).isFalse();
    assertThat(HadoopStorage.preconditionFailed(translated(400, "InvalidRequest"))).isFalse();
    assertThat(HadoopStorage.preconditionFailed(translated(403, "AccessDenied"))).isFalse();
  }
}
