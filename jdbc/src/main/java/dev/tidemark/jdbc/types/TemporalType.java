package dev.tidemark.jdbc.types;

import dev.tidemark.event.ColumnType;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.temporal.Temporal;
import java.util.List;
import java.util.stream.Stream;

/**
 * Date-times, dates or times: the family claims {@code keys} and binds values of the {@code javaTypes} classes the
 * engine's {@link TemporalForm} way; its text is ISO-8601 ({@code Z} for instants), which {@link #decode} reads back.
 */
public record TemporalType(List<String> keys, List<Class<? extends Temporal>> javaTypes, Ddl spelling, TemporalForm form)
        implements SpelledType {

    /** Timestamps ({@link TypeKeys#TIMESTAMPS}), zoned ones as {@link Instant}s, local ones as {@link LocalDateTime}s. */
    public static TemporalType timestamps(Ddl spelling, TemporalForm form) {
        return new TemporalType(TypeKeys.TIMESTAMPS, List.of(Instant.class, LocalDateTime.class), spelling, form);
    }

    /** Dates ({@link TypeKeys#DATES}) as {@link LocalDate}s. */
    public static TemporalType dates(Ddl spelling, TemporalForm form) {
        return new TemporalType(TypeKeys.DATES, List.of(LocalDate.class), spelling, form);
    }

    /** Local times of day ({@link TypeKeys#TIMES}), and where {@code zoned} the zoned ones too (carried as text). */
    public static TemporalType times(Ddl spelling, TemporalForm form, boolean zoned) {
        List<String> keys = zoned
                ? Stream.concat(TypeKeys.TIMES.stream(), Stream.of(TargetType.logical(ColumnType.ZONED_TIME))).toList()
                : TypeKeys.TIMES;
        return new TemporalType(keys, List.of(LocalTime.class), spelling, form);
    }

    @Override
    public boolean holds(Object value) {
        return javaTypes.stream().anyMatch(c -> c.isInstance(value));
    }

    @Override
    public void bind(PreparedStatement statement, int index, Object value) throws SQLException {
        form.bind(statement, index, value);
    }

    @Override
    public String text(Object value) {
        return form.text(value);
    }

    @Override
    public Object decode(String text) {
        if (text.endsWith("Z")) {
            return Instant.parse(text);
        }
        if (text.contains("T")) {
            return LocalDateTime.parse(text);
        }
        return text.contains(":") ? LocalTime.parse(text) : LocalDate.parse(text);
    }
}
