package io.mosaic.format;

import java.io.Serializable;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/** One column of a table: its name, type and whether it may hold nulls. */
public record ColumnSpec(String name, ColumnType type, boolean nullable) implements Serializable {
  /**
   * The field metadata key that carries a type Arrow has no own type for ({@code char(n)}, a Utf8
   * field; {@code timestamp_tz}, a Timestamp field as {@code timestamp}'s), so that a batch built
   * from {@link TableSchema#arrowSchema()} matches the table.
   */
  static final String ARROW_TYPE_KEY = "mosaic.type";

  /** The column as an Arrow field. */
  public Field arrowField() {
    Map<String, String> metadata =
        type.kind() == ColumnType.Kind.CHAR || type.kind() == ColumnType.Kind.TIMESTAMP_TZ
            ? Map.of(ARROW_TYPE_KEY, type.toString())
            : null;
    return new Field(name, new FieldType(nullable, type.arrowType(), null, metadata), null);
  }

  /** Maps an Arrow field (flat; see {@link TableSchema#fromArrow}). */
  public static ColumnSpec fromArrow(Field f) {
    String declared = f.getMetadata().get(ARROW_TYPE_KEY);
    ColumnType type =
        declared != null
                && (f.getType() instanceof ArrowType.Utf8
                    || f.getType() instanceof ArrowType.Timestamp)
            ? ColumnType.parse(declared)
            : ColumnType.fromArrow(f.getName(), f.getType());
    return new ColumnSpec(f.getName(), type, f.isNullable());
  }
}
