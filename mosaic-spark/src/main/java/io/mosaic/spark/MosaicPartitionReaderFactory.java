package io.mosaic.spark;

import io.mosaic.cooperative.SharingPolicy;
import io.mosaic.format.ColumnType;
import io.mosaic.format.DeletedRows;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.Scan;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TablePin;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Columnar reads on executors: each task scans its split through the executor's retriever and hands
 * Spark the retriever's Arrow vectors as a {@link ColumnarBatch}, without copying;
 * dictionary-encoded chunks stay ids until Spark reads a row ({@link DictionaryColumnVector}), and
 * decimals of up to 18 digits come as unscaled longs ({@link UnscaledDecimalColumnVector}).
 */
final class MosaicPartitionReaderFactory implements PartitionReaderFactory {
  /** One retriever (device reader pools, decoding pool) per pool and executor JVM. */
  private static final Map<String, Retriever> RETRIEVERS = new ConcurrentHashMap<>();

  /**
   * This JVM's retriever for the device pool configured at {@code devices}, if any read used it.
   */
  static Retriever retriever(String devices) {
    return RETRIEVERS.get(devices);
  }

  @Override
  public boolean supportColumnarReads(InputPartition partition) {
    return true;
  }

  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    throw new UnsupportedOperationException("Mosaic reads are columnar");
  }

  @Override
  public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition input) {
    MosaicInputPartition p = (MosaicInputPartition) input;
    Retriever retriever =
        RETRIEVERS.computeIfAbsent(
            p.options().devices(),
            d -> {
              ExecutorSettings settings = MosaicSparkConf.executor();
              return new Retriever(
                  p.options().pool(),
                  settings.decodeThreads(),
                  settings.vectorPoolBytes(),
                  SharingPolicy.ENGINE_DEFAULT,
                  settings.sharedBufferBytes());
            });
    MosaicTable table = MosaicTable.open(p.options().location(), p.options().pool());
    TablePin pin = table.pin(p.version());
    Scan scan;
    try {
      scan = retriever.scan(table, pin, p.request().dictionaries(true).unscaledDecimals(true));
    } catch (RuntimeException e) {
      pin.close();
      throw e;
    }
    ColumnType[] columns =
        p.request().columns().stream()
            .map(c -> scan.manifest().schema().column(c).type())
            .toArray(ColumnType[]::new);
    // Vectors are strings; char(n) is padded over them (CharColumnVector).
    DataType[] types =
        Arrays.stream(columns)
            .map(
                t ->
                    t.kind() == ColumnType.Kind.CHAR ? DataTypes.StringType : SparkTypes.toSpark(t))
            .toArray(DataType[]::new);
    return new PartitionReader<>() {
      private ColumnarBatch batch;
      private long[] base = new long[ScanMetrics.supported(p.options().pool()).length];

      @Override
      public void initMetricsValues(CustomTaskMetric[] previous) {
        base = ScanMetrics.base(p.options().pool(), previous);
      }

      @Override
      public CustomTaskMetric[] currentMetricsValues() {
        return ScanMetrics.values(p.options().pool(), scan.stats(), scan.rowGroups().size(), base);
      }

      @Override
      public boolean next() {
        if (!scan.hasNext()) {
          return false;
        }
        VectorSchemaRoot root = scan.next();
        ColumnVector[] vectors = new ColumnVector[root.getFieldVectors().size()];
        for (int i = 0; i < vectors.length; i++) {
          FieldVector dictionary = scan.dictionary(i);
          FieldVector vector = root.getVector(i);
          if (columns[i].kind() == ColumnType.Kind.UUID) {
            // Spark's Arrow views know no fixed-size binary (nor time in microseconds, below).
            vectors[i] = new UuidColumnVector((FixedSizeBinaryVector) vector);
          } else if (columns[i].kind() == ColumnType.Kind.TIME) {
            vectors[i] =
                new TimeColumnVector(
                    dictionary == null
                        ? null
                        : new DictionaryColumnVector(types[i], (IntVector) vector, dictionary),
                    vector);
          } else if (dictionary != null) {
            vectors[i] = new DictionaryColumnVector(types[i], (IntVector) vector, dictionary);
          } else if (vector instanceof BigIntVector unscaled
              && types[i] instanceof DecimalType decimal) {
            vectors[i] = new UnscaledDecimalColumnVector(decimal, unscaled);
          } else {
            vectors[i] = FixedWidthColumnVector.of(vector);
          }
          switch (columns[i].kind()) {
            case CHAR ->
                vectors[i] = new CharColumnVector(vectors[i], vector, columns[i].precision());
            default -> {}
          }
        }
        int rows = root.getRowCount();
        DeletedRows deleted = scan.manifest().deletedRows(scan.rowGroup());
        int[] live = null;
        if (deleted != null) {
          // Deleted rows are decoded with their row group and left out of the batch through a
          // view (docs/format.md, "Deletion vectors").
          if (rows != scan.manifest().rowGroups().get(scan.rowGroup())) {
            throw new IllegalStateException(
                "row group " + scan.rowGroup() + " was read in part; its deletions need it whole");
          }
          live = deleted.livePositions(rows);
          for (int i = 0; i < vectors.length; i++) {
            vectors[i] = new LiveRowsColumnVector(vectors[i], live);
          }
          rows = live.length;
        }
        batch = new ColumnarBatch(withRowIds(vectors, live, rows), rows);
        return true;
      }

      /** The vectors with the row id column inserted where the scan asked for it. */
      private ColumnVector[] withRowIds(ColumnVector[] vectors, int[] live, int rows) {
        int at = p.rowIdColumn();
        if (at < 0) {
          return vectors;
        }
        long[] ids = new long[rows];
        for (int r = 0; r < rows; r++) {
          ids[r] = DeletedRows.rowId(scan.rowGroup(), live == null ? r : live[r]);
        }
        ColumnVector[] out = new ColumnVector[vectors.length + 1];
        System.arraycopy(vectors, 0, out, 0, at);
        out[at] = new RowIdColumnVector(ids);
        System.arraycopy(vectors, at, out, at + 1, vectors.length - at);
        return out;
      }

      @Override
      public ColumnarBatch get() {
        return batch;
      }

      @Override
      public void close() {
        try {
          scan.close();
        } finally {
          pin.close();
        }
      }
    };
  }
}
