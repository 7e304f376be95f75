// use this file to export your custom types; these types will be imported by './i18n-types.ts'
