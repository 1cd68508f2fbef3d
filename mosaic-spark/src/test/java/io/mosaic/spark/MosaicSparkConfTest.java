package io.mosaic.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.cooperative.SharingPolicy;
import java.util.Map;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * {@link MosaicSparkConf} reads each setting from its sources in docs/spark.md's order, and a bad
 * value's error names the source it came from.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MosaicSparkConfTest {
  private SparkSession spark;

  @BeforeAll
  void start() {
    spark =
        SparkSession.builder()
            .master("local[1]")
            .appName("mosaic-spark-conf")
            .config("spark.ui.enabled", "false")
            .getOrCreate();
  }

  @AfterEach
  void unsetConf() {
    spark.conf().unset("spark.mosaic.pushdown");
    spark.conf().unset("spark.mosaic.sharing_policy");
    spark.conf().unset("spark.mosaic.devices");
  }

  @AfterAll
  void stop() {
    spark.stop();
  }

  @Test
  void optionThenSessionConfThenTablePropertyThenDefault() {
    Map<String, String> properties = Map.of("pushdown", "false", "sharing_policy", "attach");
    Map<String, String> options = Map.of("pushdown", "false", "sharing_policy", "normal");

    MosaicSparkConf none = new MosaicSparkConf(Map.of(), Map.of());
    assertThat(none.pushdown()).isTrue();
    assertThat(none.sharingPolicy()).isNull();
    MosaicSparkConf byProperty = new MosaicSparkConf(Map.of(), properties);
    assertThat(byProperty.pushdown()).isFalse();
    assertThat(byProperty.sharingPolicy()).isEqualTo(SharingPolicy.ATTACH);

    spark.conf().set("spark.mosaic.pushdown", "true");
    spark.conf().set("spark.mosaic.sharing_policy", "elevator");
    assertThat(byProperty.pushdown()).isTrue();
    assertThat(byProperty.sharingPolicy()).isEqualTo(SharingPolicy.ELEVATOR);

    MosaicSparkConf byOption = new MosaicSparkConf(options, properties);
    assertThat(byOption.pushdown()).isFalse();
    assertThat(byOption.sharingPolicy()).isEqualTo(SharingPolicy.NORMAL);

    // A table not created yet: its pool from the session conf, else the option.
    spark.conf().set("spark.mosaic.devices", "session.toml");
    assertThat(MosaicSparkConf.location(Map.of("path", "/no/table")))
        .isEqualTo(
            new MosaicOptions("/no/table", "session.toml", MosaicSparkConf.hadoopSettings()));
    assertThat(MosaicSparkConf.location(Map.of("path", "/no/table", "devices", "option.toml")))
        .isEqualTo(new MosaicOptions("/no/table", "option.toml", MosaicSparkConf.hadoopSettings()));
  }

  @Test
  void aBadValueNamesItsSource() {
    assertThatThrownBy(() -> new MosaicSparkConf(Map.of(), Map.of("pushdown", "maybe")).pushdown())
        .hasMessageContaining("table property pushdown = 'maybe' must be true or false");
    spark.conf().set("spark.mosaic.pushdown", "perhaps");
    spark.conf().set("spark.mosaic.sharing_policy", "fastest");
    MosaicSparkConf bySession = new MosaicSparkConf(Map.of(), Map.of());
    assertThatThrownBy(bySession::pushdown)
        .hasMessageContaining("session conf spark.mosaic.pushdown = 'perhaps' must be true");
    assertThatThrownBy(bySession::sharingPolicy)
        .hasMessageContaining("session conf spark.mosaic.sharing_policy: ")
        .hasMessageContaining("'fastest' is unknown");
    assertThatThrownBy(() -> new MosaicSparkConf(Map.of("pushdown", "no"), Map.of()).pushdown())
        .hasMessageContaining("option pushdown = 'no' must be true or false");

    assertThatThrownBy(() -> MosaicSparkConf.location(Map.of()))
        .hasMessageContaining("no table location: use .load(");
    assertThatThrownBy(() -> MosaicSparkConf.location(Map.of("path", "/no/table")))
        .hasMessageContaining("no device pool for Mosaic table /no/table: set the option");
    assertThatThrownBy(
            () ->
                MosaicSparkConf.executor(
                    new SparkConf(false).set("spark.mosaic.shared_buffer_memory", "0")))
        .hasMessageContaining("spark.mosaic.shared_buffer_memory = '0': give a size above 0");
    assertThatThrownBy(() -> MosaicSparkConf.catalog("lake", Map.of("devices", "d.toml")))
        .hasMessageContaining("catalog lake needs spark.sql.catalog.lake.devices")
        .hasMessageContaining("spark.sql.catalog.lake.warehouse (a directory, or a URI");
  }
}
