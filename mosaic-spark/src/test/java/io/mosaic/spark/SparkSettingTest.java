package io.mosaic.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

/** Every setting the module reads is in one enum, and each is documented where users look. */
class SparkSettingTest {
  @Test
  void everySettingIsDocumentedUnderTheNameSparkReads() throws IOException {
    String docs = Files.readString(Path.of("..", "docs", "spark.md"));
    for (SparkSetting s : SparkSetting.values()) {
      String name =
          s.scope() == SparkSetting.Scope.CATALOG
              ? "spark.sql.catalog.mosaic." + s.key()
              : s.confKey();
      assertThat(docs).as("docs/spark.md names %s", s).contains(name);
    }
  }

  @Test
  void executorSettingsAreReadUnderTheirConfKeys() {
    SparkConf conf =
        new SparkConf(false)
            .set(SparkSetting.DECODE_THREADS.confKey(), "3")
            .set(SparkSetting.VECTOR_POOL_MEMORY.confKey(), "1m");
    assertThat(ExecutorSettings.from(conf))
        .isEqualTo(new ExecutorSettings(3, 1L << 20, ExecutorSettings.defaultSharedBufferBytes()));
  }
}
