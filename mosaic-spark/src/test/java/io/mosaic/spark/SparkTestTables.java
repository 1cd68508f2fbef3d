package io.mosaic.spark;

import io.mosaic.config.Bandwidth;
import io.mosaic.config.Codec;
import io.mosaic.config.Latency;
import io.mosaic.device.DevicePool;
import io.mosaic.model.DeviceModel;
import io.mosaic.model.DeviceModelFile;
import io.trino.tpch.Order;
import io.trino.tpch.OrderGenerator;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Date;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/** What the Spark tests share: a two-device pool and TPC-H orders at SF 0.01 with some nulls. */
final class SparkTestTables {
  private SparkTestTables() {}

  static final StructType ORDERS =
      new StructType()
          .add("o_orderkey", DataTypes.LongType, false)
          .add("o_custkey", DataTypes.LongType, false)
          .add("o_orderstatus", DataTypes.StringType, true)
          .add("o_totalprice", DataTypes.createDecimalType(12, 2), false)
          .add("o_orderdate", DataTypes.DateType, false)
          .add("o_comment", DataTypes.StringType, true);

  /**
   * The pool's local device "nvme" in {@code pool/nvme} of the pool file's folder, holding the
   * metadata; the HDFS tests' pools have it beside their HDFS devices.
   */
  static final String NVME =
      """
      [[device]]
      id = "nvme"
      path = "pool/nvme"
      capacity = "10 GB"
      threads = 2
      codec = "zstd"
      cost_per_gb = "125 ct"
      metadata = true
      """;

  /**
   * Writes {@code dir/devices.toml}: devices nvme (zstd, metadata) and hdd (lz4) under dir/pool.
   */
  static Path devices(Path dir) throws IOException {
    Path devices = dir.resolve("devices.toml");
    Files.writeString(
        devices,
        NVME
            + """
        emulate = { read = "2 GB/s" }

        [[device]]
        id = "hdd"
        path = "pool/hdd"
        capacity = "10 GB"
        threads = 1
        codec = "lz4"
        cost_per_gb = "30 ct"
        emulate = { read = "1 GB/s" }
        """);
    return devices;
  }

  /**
   * Writes the pool's device model as `mosaic calibrate` would, with nvme far faster than hdd so a
   * placement is not trivial.
   */
  static void deviceModel(DevicePool pool) throws IOException {
    DeviceModelFile.write(
        pool.modelFile(),
        List.of(
            new DeviceModel(
                "nvme",
                2,
                Bandwidth.ofMegabytesPerSecond(2000),
                Latency.ofMillis(0.1),
                Map.of(
                    Codec.ZSTD,
                    new DeviceModel.CodecModel(Bandwidth.ofMegabytesPerSecond(3000), 3.0))),
            new DeviceModel(
                "hdd",
                1,
                Bandwidth.ofMegabytesPerSecond(50),
                Latency.ofMillis(8),
                Map.of(
                    Codec.LZ4,
                    new DeviceModel.CodecModel(Bandwidth.ofMegabytesPerSecond(60), 2.0)))),
        "test model: nvme far faster than hdd");
  }

  /** TPC-H orders at SF 0.01 (15,000 rows); every tenth o_orderstatus is null. */
  static Dataset<Row> orders(SparkSession spark) {
    List<Row> rows = new ArrayList<>();
    for (Order o : new OrderGenerator(0.01, 1, 1)) {
      rows.add(
          RowFactory.create(
              o.getOrderKey(),
              o.getCustomerKey(),
              o.getOrderKey() % 10 == 0 ? null : String.valueOf(o.getOrderStatus()),
              BigDecimal.valueOf(o.getTotalPriceInCents(), 2),
              Date.valueOf(LocalDate.ofEpochDay(o.getOrderDate())),
              o.getComment()));
    }
    return spark.createDataFrame(rows, ORDERS).repartition(3);
  }
}
