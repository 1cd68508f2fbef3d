package io.mosaic.table;

import io.mosaic.format.ColumnSpec;
import io.mosaic.format.ColumnType;
import io.mosaic.format.TableSchema;
import io.trino.tpch.LineItem;
import io.trino.tpch.LineItemGenerator;
import io.trino.tpch.Order;
import io.trino.tpch.OrderGenerator;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/** TPC-H tables from the io.trino.tpch generator as Arrow batches, with the TPC-H types. */
public final class TpchBatches {
  public static final TableSchema LINEITEM =
      schema(
          "l_orderkey int64",
          "l_partkey int64",
          "l_suppkey int64",
          "l_linenumber int32",
          "l_quantity decimal(12,2)",
          "l_extendedprice decimal(12,2)",
          "l_discount decimal(12,2)",
          "l_tax decimal(12,2)",
          "l_returnflag string",
          "l_linestatus string",
          "l_shipdate date",
          "l_commitdate date",
          "l_receiptdate date",
          "l_shipinstruct string",
          "l_shipmode string",
          "l_comment string");

  public static final TableSchema ORDERS =
      schema(
          "o_orderkey int64",
          "o_custkey int64",
          "o_orderstatus string",
          "o_totalprice decimal(12,2)",
          "o_orderdate date",
          "o_orderpriority string",
          "o_clerk string",
          "o_shippriority int32",
          "o_comment string");

  private TpchBatches() {}

  public static TableSchema schema(String... columns) {
    return new TableSchema(
        List.of(columns).stream()
            .map(c -> c.split(" ", 2))
            .map(p -> new ColumnSpec(p[0], ColumnType.parse(p[1]), false))
            .toList());
  }

  /** Rows {@code [skip, skip + limit)} of lineitem at {@code sf}, in batches of {@code batch}. */
  public static void lineitem(
      double sf,
      long skip,
      long limit,
      int batch,
      BufferAllocator alloc,
      Consumer<VectorSchemaRoot> out) {
    Iterator<LineItem> rows = new LineItemGenerator(sf, 1, 1).iterator();
    for (long i = 0; i < skip && rows.hasNext(); i++) {
      rows.next();
    }
    long left = limit;
    while (left > 0 && rows.hasNext()) {
      try (VectorSchemaRoot root = VectorSchemaRoot.create(LINEITEM.arrowSchema(), alloc)) {
        root.allocateNew();
        int n = 0;
        while (n < batch && left > 0 && rows.hasNext()) {
          LineItem r = rows.next();
          ((BigIntVector) root.getVector(0)).setSafe(n, r.getOrderKey());
          ((BigIntVector) root.getVector(1)).setSafe(n, r.getPartKey());
          ((BigIntVector) root.getVector(2)).setSafe(n, r.getSupplierKey());
          ((IntVector) root.getVector(3)).setSafe(n, r.getLineNumber());
          decimal(root, 4, n, r.getQuantity() * 100);
          decimal(root, 5, n, r.getExtendedPriceInCents());
          decimal(root, 6, n, r.getDiscountPercent());
          decimal(root, 7, n, r.getTaxPercent());
          string(root, 8, n, r.getReturnFlag());
          string(root, 9, n, r.getStatus());
          ((DateDayVector) root.getVector(10)).setSafe(n, r.getShipDate());
          ((DateDayVector) root.getVector(11)).setSafe(n, r.getCommitDate());
          ((DateDayVector) root.getVector(12)).setSafe(n, r.getReceiptDate());
          string(root, 13, n, r.getShipInstructions());
          string(root, 14, n, r.getShipMode());
          string(root, 15, n, r.getComment());
          n++;
          left--;
        }
        root.setRowCount(n);
        out.accept(root);
      }
    }
  }

  public static void orders(
      double sf, int batch, BufferAllocator alloc, Consumer<VectorSchemaRoot> out) {
    Iterator<Order> rows = new OrderGenerator(sf, 1, 1).iterator();
    while (rows.hasNext()) {
      try (VectorSchemaRoot root = VectorSchemaRoot.create(ORDERS.arrowSchema(), alloc)) {
        root.allocateNew();
        int n = 0;
        while (n < batch && rows.hasNext()) {
          Order r = rows.next();
          ((BigIntVector) root.getVector(0)).setSafe(n, r.getOrderKey());
          ((BigIntVector) root.getVector(1)).setSafe(n, r.getCustomerKey());
          string(root, 2, n, String.valueOf(r.getOrderStatus()));
          decimal(root, 3, n, r.getTotalPriceInCents());
          ((DateDayVector) root.getVector(4)).setSafe(n, r.getOrderDate());
          string(root, 5, n, r.getOrderPriority());
          string(root, 6, n, r.getClerk());
          ((IntVector) root.getVector(7)).setSafe(n, r.getShipPriority());
          string(root, 8, n, r.getComment());
          n++;
        }
        root.setRowCount(n);
        out.accept(root);
      }
    }
  }

  private static void decimal(VectorSchemaRoot root, int column, int row, long unscaled) {
    ((DecimalVector) root.getVector(column))
        .setSafe(row, java.math.BigDecimal.valueOf(unscaled, 2));
  }

  private static void string(VectorSchemaRoot root, int column, int row, String value) {
    ((VarCharVector) root.getVector(column)).setSafe(row, value.getBytes(StandardCharsets.UTF_8));
  }
}
