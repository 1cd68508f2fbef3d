package io.mosaic.bench.headline;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The two Parquet answers of the headline benchmark against hand-computed budgets: a 1 GB table
 * scanned three times and a 0.1 GB table scanned once, on Table 1's prices (125, 60, 45 and 30 ct
 * per GB), so everything costs 137.5, 66, 49.5 or 33 ct on one device class.
 */
class ParquetAnswersTest {
  @TempDir Path dir;

  @BeforeEach
  void inputs() throws IOException {
    Headline.main(new String[] {"pool", dir.toString(), "10", "2 GB"});
    Files.writeString(
        dir.resolve("sizes.csv"),
        """
        table,column,bytes,zstd_bytes,lz4_bytes
        big,b,4500000000,1000000000,
        small,s,450000000,100000000,
        """);
    Files.writeString(dir.resolve("trace.csv"), "[[trace]]\nbig:b x3\nsmall:s\n");
    StringBuilder bytes = new StringBuilder("table,device,bytes\n");
    for (String d : List.of("nvme", "ssd", "raid5", "hdd")) {
      bytes.append("big,").append(d).append(",1000000000\n");
      bytes.append("small,").append(d).append(",100000000\n");
    }
    Files.writeString(dir.resolve("parquet-bytes.csv"), bytes);
  }

  private List<String[]> answers(double budgetCents) throws IOException {
    Path out = dir.resolve("answers.tsv");
    ParquetAnswers.write(dir, budgetCents, out);
    return Files.readAllLines(out).stream().map(l -> l.split("\t", -1)).toList();
  }

  @Test
  void parquetAloneIsTheFastestClassWhosePriceFits() throws IOException {
    assertThat(answers(50).get(0)[3]).isEqualTo("big=raid5,small=raid5");
    assertThat(answers(70).get(0)[3]).isEqualTo("big=ssd,small=ssd");
    assertThat(answers(140).get(0)[3]).isEqualTo("big=nvme,small=nvme");
    assertThat(Double.parseDouble(answers(70).get(0)[1])).isEqualTo(66.0);
  }

  @Test
  void belowTheCheapestClassParquetAloneIsOnItAndSaysOverBudget() throws IOException {
    String[] alone = answers(30).get(0);
    assertThat(alone[3]).isEqualTo("big=hdd,small=hdd");
    assertThat(alone[4]).contains("over budget");
  }

  @Test
  void hotTablePutsTheHottestTableFirstOnTheFastestDeviceTheBudgetAllows() throws IOException {
    // 72 ct: big on the NVMe (125) is too dear, on the SSD (60) it leaves 12 ct: not enough for
    // small on the NVMe (12.5), enough on the SSD (6).
    String[] table = answers(72).get(1);
    assertThat(table[0]).isEqualTo("parquet-table");
    assertThat(table[3]).isEqualTo("big=ssd,small=ssd");
    // 200 ct: both on the NVMe. 130 ct: big on the NVMe (125) as small still fits on the HDD
    // (3); the 5 ct left then buy small the RAID (4.5), not the SSD (6).
    assertThat(answers(200).get(1)[3]).isEqualTo("big=nvme,small=nvme");
    assertThat(answers(130).get(1)[3]).isEqualTo("big=nvme,small=raid5");
    assertThat(Double.parseDouble(answers(130).get(1)[1])).isLessThanOrEqualTo(130.0);
  }
}
