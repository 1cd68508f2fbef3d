package io.mosaic.format;

import io.mosaic.MosaicException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.schema.MessageType;

/** The columns of a table, in order. Column names are unique ignoring case, as in SQL. */
public record TableSchema(List<ColumnSpec> columns) implements Serializable {
  public TableSchema {
    columns = List.copyOf(columns);
    if (columns.isEmpty()) {
      throw MosaicException.invalid("a table needs at least one column");
    }
    Set<String> seen = new HashSet<>();
    for (ColumnSpec c : columns) {
      if (c.name().isEmpty() || c.name().contains("/") || c.name().contains("\0")) {
        throw MosaicException.invalid(
            "column name '" + c.name() + "' is not allowed: it must be non-empty, without '/'");
      }
      if (!seen.add(c.name().toLowerCase(Locale.ROOT))) {
        throw MosaicException.invalid("column '" + c.name() + "' appears twice");
      }
    }
  }

  /** Maps an Arrow schema; nested or unsupported types are a clear error naming the column. */
  public static TableSchema fromArrow(Schema schema) {
    List<ColumnSpec> columns = new ArrayList<>();
    for (Field f : schema.getFields()) {
      if (!f.getChildren().isEmpty()) {
        throw MosaicException.unsupported(
            "column '"
                + f.getName()
                + "' is nested ("
                + f.getType()
                + "); Mosaic stores flat columns only: "
                + ColumnType.SUPPORTED);
      }
      columns.add(ColumnSpec.fromArrow(f));
    }
    return new TableSchema(columns);
  }

  public Schema arrowSchema() {
    return new Schema(columns.stream().map(ColumnSpec::arrowField).toList());
  }

  /** The one-column Parquet schema of a segment of {@code column}. */
  public static MessageType segmentSchema(ColumnSpec column) {
    return new MessageType(
        "mosaic_segment", column.type().parquetType(column.name(), column.nullable()));
  }

  public ColumnSpec column(String name) {
    for (ColumnSpec c : columns) {
      if (c.name().equalsIgnoreCase(name)) {
        return c;
      }
    }
    throw MosaicException.notFound(
        "unknown column '"
            + name
            + "'; the table has: "
            + String.join(", ", columns.stream().map(ColumnSpec::name).toList()));
  }

  public int indexOf(String name) {
    return columns.indexOf(column(name));
  }

  public List<String> names() {
    return columns.stream().map(ColumnSpec::name).toList();
  }
}
