package dev.tidemark.connector.debezium;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.debezium.data.SpecialValueDecimal;
import io.debezium.data.VariableScaleDecimal;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class ExactNumericConverterTest {

    @Test
    void onlyUnconstrainedNumericColumnsAreConverted() {
        assertThat(ExactNumericConverter.isUnconstrainedNumeric("numeric", 0, 0)).isTrue();
        assertThat(ExactNumericConverter.isUnconstrainedNumeric("NUMERIC", 131089, 0)).isTrue();
        assertThat(ExactNumericConverter.isUnconstrainedNumeric("numeric", 20, 6)).isFalse();
        assertThat(ExactNumericConverter.isUnconstrainedNumeric("numeric", 10, 0)).isFalse();
        assertThat(ExactNumericConverter.isUnconstrainedNumeric("int4", 0, 0)).isFalse();
    }

    @Test
    void theScaleIsKept() {
        assertThat(ExactNumericConverter.exact("t.v", new BigDecimal("1.10")).scale()).isEqualTo(2);
        assertThat(ExactNumericConverter.exact("t.v", new SpecialValueDecimal(new BigDecimal("0.000"))).toString()).isEqualTo("0.000");
        assertThat(ExactNumericConverter.exact("t.v", "-12.3400")).isEqualTo(new BigDecimal("-12.3400"));
        var struct = VariableScaleDecimal.fromLogical(VariableScaleDecimal.schema(), ExactNumericConverter.exact("t.v", "1.10"));
        assertThat(VariableScaleDecimal.toLogical(struct).getDecimalValue()).hasValue(new BigDecimal("1.10"));
    }

    @Test
    void specialValuesStopCaptureNamingTheColumn() {
        assertThatThrownBy(() -> ExactNumericConverter.exact("public.t.v", SpecialValueDecimal.NOT_A_NUMBER))
                .hasMessageContaining("public.t.v").hasMessageContaining("NaN");
        assertThatThrownBy(() -> ExactNumericConverter.exact("public.t.v", "Infinity")).hasMessageContaining("Infinity");
    }
}
