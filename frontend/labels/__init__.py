"""The translated words each page hands its ES modules (`{{ labels|json_script:"labels" }}`),
one module per part of the site."""
