"""OpenVINO IR v10/v11 (`.xml` + `.bin`): reader and writer."""
