package org.zstack.aio.server.config;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

@Entity
@Table(name = "GlobalConfigVO")
public class GlobalConfigVO {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;
    private String category;
    private String name;
    private String description;
    private String defaultValue;
    private String value;

    protected GlobalConfigVO() {
    }

    GlobalConfigVO(GlobalConfigDefinition d) {
        this.category = d.category();
        this.name = d.name();
        this.description = d.description();
        this.defaultValue = d.defaultValue();
        this.value = d.defaultValue();
    }

    public String getCategory() { return category; }
    public String getName() { return name; }
    public String getDescription() { return description; }
    public String getDefaultValue() { return defaultValue; }
    public String getValue() { return value; }

    void setValue(String value) { this.value = value; }

    /** Follows a changed definition; a value still equal to the old default follows the new default. */
    boolean syncWith(GlobalConfigDefinition d) {
        boolean changed = false;
        if (!d.defaultValue().equals(defaultValue)) {
            if (value == null || value.equals(defaultValue)) value = d.defaultValue();
            defaultValue = d.defaultValue();
            changed = true;
        }
        if (!d.description().equals(description)) {
            description = d.description();
            changed = true;
        }
        return changed;
    }
}
