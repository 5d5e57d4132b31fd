// vertex
uniform mat4 renderer_MVPMat;

attribute vec4 POSITION;
attribute vec2 TEXCOORD_0;

varying vec2 uv;

void main() {
    gl_Position = renderer_MVPMat * POSITION;
    uv = TEXCOORD_0;
}

// fragment
uniform vec4 material_BaseColor;
uniform sampler2D material_BaseTexture;

varying vec2 uv;

void main() {
    vec4 texColor = texture2D(material_BaseTexture, uv);
    vec4 finalColor = texColor * material_BaseColor;
    gl_FragColor = finalColor;
}
